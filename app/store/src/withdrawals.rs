//! Citations withdrawn from the District Court (issue #33): a chief's amendment
//! after filing changed a citation's person, charge or arrest, or took it away.
//! The withdrawal is recorded by `review` as the amendment is stored; here it is
//! read, for the clerk's filing queue (those no export has carried to the court
//! yet) and for the report they belong to.

use crate::db::Pool;

use crate::incidents::subject_label;
use domain::error::AppError;
use domain::model::court::Withdrawal;
use domain::ordinance::{Moment, Offence};
use domain::town_time::TownZone;

/// Which withdrawals to list.
#[derive(Debug, Clone, Copy)]
pub enum Which<'a> {
    /// Those no export has carried to the court since they were withdrawn.
    Unsent,
    /// Those of one report (its incident id).
    Of(&'a str),
}

/// Whether an export carried withdrawal `w` to the court after it was made.
const SENT: &str = "EXISTS (SELECT 1 FROM citation_export x WHERE x.number = w.number \
    AND x.last_exported_at >= w.at)";

/// The withdrawals asked for, oldest first, each with its citation's person and
/// offence and the citation that replaces it.
pub async fn list(
    pool: &Pool,
    zone: &TownZone,
    which: Which<'_>,
) -> Result<Vec<Withdrawal>, AppError> {
    type Row = (
        String,
        String,
        i64,
        Option<String>,
        Option<String>,
        String,
        i64,
        String,
        Option<String>,
        i64,
    );
    let condition = match which {
        Which::Unsent => format!("NOT {SENT}"),
        Which::Of(_) => "w.incident_id = $1".to_owned(),
    };
    let sql = format!(
        "SELECT w.number, c.offence, s.identified, s.full_name, s.description, w.reason, w.at, \
         u.full_name, (SELECT n.number FROM citation n WHERE n.replaces = w.number), \
         CASE WHEN {SENT} THEN 1 ELSE 0 END \
         FROM citation_withdrawal w JOIN citation c ON c.number = w.number \
         JOIN subject s ON s.subject_id = c.subject_id JOIN app_user u ON u.user_id = w.actor_id \
         WHERE {condition} ORDER BY w.at, w.number"
    );
    let mut query = sqlx::query_as::<_, Row>(&sql);
    if let Which::Of(incident_id) = which {
        query = query.bind(incident_id);
    }
    let rows = query.fetch_all(pool).await?;
    rows.into_iter()
        .map(
            |(
                number,
                offence,
                identified,
                name,
                description,
                reason,
                at,
                by,
                replaced_by,
                sent,
            )| {
                Ok(Withdrawal {
                    number,
                    subject: subject_label(identified, name, description),
                    offence: Offence::from_code(&offence).ok_or(AppError::Internal)?,
                    reason,
                    at_text: zone.date_time(Moment(at)),
                    by,
                    replaced_by,
                    sent: sent == 1,
                })
            },
        )
        .collect()
}

//! The SQL that says where a citation stands with the court, shared by the court
//! clerk's queue and export (`court`) and the reports that show a citation's
//! state (`incidents`). A leaf: it imports nothing of the store.

/// The citations that are the court's: approved by the chief, then filed and
/// disposed (`court::court_status` says the same of one status).
pub(crate) const AT_COURT: &str = "c.status IN ('approved', 'filed', 'disposed')";

/// Whether the citation `c` was changed by a chief's amendment after the last
/// export that carried it (or amended and never exported): the next export
/// marks it an amended filing, so the court replaces the copy it has.
/// 1 when it was, else 0 — an integer on both engines.
/// A CASE, not `amended_at IS NOT NULL AND …`: SQLite ran the subquery for
/// every row of an `AND` (0.7 s of a 100 000-citation export, where almost
/// none is amended). Migration 0012 names it by its first place,
/// `store::court`.
pub(crate) const AMENDED_SINCE_EXPORT: &str = "CASE WHEN c.amended_at IS NULL THEN 0 WHEN NOT EXISTS (\
    SELECT 1 FROM citation_export x WHERE x.number = c.number AND x.last_exported_at >= c.amended_at) \
    THEN 1 ELSE 0 END";

/// Whether the citation `c` is held out of filing (issue #33): approved, its
/// person not identified — a summons needs the person's name and address. Held
/// until the chief's amendment identifies them. (A citation filed before this
/// rule stays with the court.) Looked up by the person's key.
pub(crate) const HELD_UNIDENTIFIED: &str = "(c.status = 'approved' AND EXISTS (\
    SELECT 1 FROM subject hs WHERE hs.subject_id = c.subject_id AND hs.identified = 0))";

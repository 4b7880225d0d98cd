//! The Town's named areas (issue #40): what the public tables say of where,
//! instead of an address or coordinates. An incident's area comes from its GPS
//! fix: the first area whose box holds the fix, else the nearest box within
//! [`NEAR_DEGREES`], else "Elsewhere in Wells"; "Not given" without a fix.
//!
//! The boxes are drawn around the places the Town's officers work (the beaches,
//! the harbor, Route 1 and the Town centre); an area listed earlier wins where
//! boxes overlap (the Town centre and the harbor lie on Route 1).

/// How far outside every box (in degrees, about 300 m) a fix still belongs to
/// the nearest box.
pub const NEAR_DEGREES: f64 = 0.003;

#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum NamedArea {
    DrakesIsland,
    WellsBeach,
    MoodyBeach,
    WellsHarbor,
    TownCentre,
    Route1,
    Elsewhere,
    NotGiven,
}

/// A box of latitude and longitude, edges included.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Bounds {
    pub south: f64,
    pub west: f64,
    pub north: f64,
    pub east: f64,
}

impl Bounds {
    pub fn contains(self, lat: f64, lon: f64) -> bool {
        lat >= self.south && lat <= self.north && lon >= self.west && lon <= self.east
    }

    /// Degrees from the box to the fix, the larger of the two directions (0
    /// inside). The store's SQL computes the same, operation for operation.
    pub fn distance(self, lat: f64, lon: f64) -> f64 {
        let dlat = (self.south - lat).max(lat - self.north).max(0.0);
        let dlon = (self.west - lon).max(lon - self.east).max(0.0);
        dlat.max(dlon)
    }
}

impl NamedArea {
    /// Every row of the area table, in order.
    pub const ALL: [NamedArea; 8] = [
        NamedArea::DrakesIsland,
        NamedArea::WellsBeach,
        NamedArea::MoodyBeach,
        NamedArea::WellsHarbor,
        NamedArea::TownCentre,
        NamedArea::Route1,
        NamedArea::Elsewhere,
        NamedArea::NotGiven,
    ];

    /// The areas with a box, in order of precedence.
    pub const BOXED: [NamedArea; 6] = [
        NamedArea::DrakesIsland,
        NamedArea::WellsBeach,
        NamedArea::MoodyBeach,
        NamedArea::WellsHarbor,
        NamedArea::TownCentre,
        NamedArea::Route1,
    ];

    pub const fn code(self) -> &'static str {
        match self {
            NamedArea::DrakesIsland => "drakes_island",
            NamedArea::WellsBeach => "wells_beach",
            NamedArea::MoodyBeach => "moody_beach",
            NamedArea::WellsHarbor => "wells_harbor",
            NamedArea::TownCentre => "town_centre",
            NamedArea::Route1 => "route_1",
            NamedArea::Elsewhere => "elsewhere",
            NamedArea::NotGiven => "not_given",
        }
    }

    pub const fn label(self) -> &'static str {
        match self {
            NamedArea::DrakesIsland => "Drakes Island",
            NamedArea::WellsBeach => "Wells Beach (with Crescent Beach)",
            NamedArea::MoodyBeach => "Moody Beach",
            NamedArea::WellsHarbor => "Wells Harbor",
            NamedArea::TownCentre => "Wells Corner and the Town centre",
            NamedArea::Route1 => "Route 1 corridor (Post Road)",
            NamedArea::Elsewhere => "Elsewhere in Wells",
            NamedArea::NotGiven => "Not given (no GPS fix)",
        }
    }

    pub const fn bounds(self) -> Option<Bounds> {
        const fn b(south: f64, west: f64, north: f64, east: f64) -> Option<Bounds> {
            Some(Bounds {
                south,
                west,
                north,
                east,
            })
        }
        match self {
            NamedArea::DrakesIsland => b(43.330, -70.560, 43.345, -70.540),
            NamedArea::WellsBeach => b(43.290, -70.5715, 43.330, -70.550),
            NamedArea::MoodyBeach => b(43.260, -70.592, 43.290, -70.570),
            NamedArea::WellsHarbor => b(43.315, -70.580, 43.326, -70.5715),
            NamedArea::TownCentre => b(43.315, -70.593, 43.326, -70.580),
            NamedArea::Route1 => b(43.255, -70.602, 43.345, -70.576),
            NamedArea::Elsewhere | NamedArea::NotGiven => None,
        }
    }

    /// The area of a GPS fix (none: "Not given").
    pub fn of(fix: Option<(f64, f64)>) -> NamedArea {
        let Some((lat, lon)) = fix else {
            return NamedArea::NotGiven;
        };
        let boxed = NamedArea::BOXED
            .into_iter()
            .filter_map(|a| a.bounds().map(|b| (a, b)));
        if let Some((area, _)) = boxed.clone().find(|(_, b)| b.contains(lat, lon)) {
            return area;
        }
        // The nearest, the earlier on a tie.
        let mut nearest: Option<(NamedArea, f64)> = None;
        for (area, b) in boxed {
            let d = b.distance(lat, lon);
            if nearest.is_none_or(|(_, best)| d < best) {
                nearest = Some((area, d));
            }
        }
        match nearest {
            Some((area, d)) if d <= NEAR_DEGREES => area,
            _ => NamedArea::Elsewhere,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_places_officers_work_fall_in_their_areas() {
        for (lat, lon, area) in [
            (43.3196, -70.5660, NamedArea::WellsBeach),
            (43.2975, -70.5723, NamedArea::WellsBeach),
            (43.3121, -70.5690, NamedArea::WellsBeach),
            (43.3361, -70.5525, NamedArea::DrakesIsland),
            (43.2722, -70.5868, NamedArea::MoodyBeach),
            (43.3199, -70.5745, NamedArea::WellsHarbor),
            (43.3187, -70.5751, NamedArea::WellsHarbor),
            (43.3222, -70.5809, NamedArea::TownCentre),
            (43.3205, -70.5884, NamedArea::TownCentre),
            (43.3229, -70.5852, NamedArea::TownCentre),
            (43.3108, -70.5925, NamedArea::Route1),
            (43.2647, -70.5985, NamedArea::Route1),
            (43.3326, -70.5776, NamedArea::Route1),
            (43.2761, -70.5958, NamedArea::Route1),
            (43.3268, -70.6098, NamedArea::Elsewhere),
            (43.3347, -70.6268, NamedArea::Elsewhere),
        ] {
            assert_eq!(NamedArea::of(Some((lat, lon))), area, "{lat}, {lon}");
        }
        assert_eq!(NamedArea::of(None), NamedArea::NotGiven);
    }

    #[test]
    fn a_fix_just_outside_a_box_goes_to_the_nearest_and_far_outside_to_elsewhere() {
        // 0.0008° west of Wells Beach's box, 0.0175° from the harbor's.
        assert_eq!(
            NamedArea::of(Some((43.2975, -70.5723))),
            NamedArea::WellsBeach
        );
        assert_eq!(
            NamedArea::of(Some((43.2975, -70.5300))),
            NamedArea::Elsewhere
        );
        // Inside two boxes: the earlier in the list.
        assert_eq!(
            NamedArea::of(Some((43.3200, -70.5790))),
            NamedArea::WellsHarbor
        );
    }

    #[test]
    fn every_area_has_a_code_of_its_own() {
        let mut codes: Vec<&str> = NamedArea::ALL.iter().map(|a| a.code()).collect();
        codes.sort_unstable();
        codes.dedup();
        assert_eq!(codes.len(), NamedArea::ALL.len());
        for a in NamedArea::BOXED {
            let b = a.bounds().expect("a box");
            assert!(b.south < b.north && b.west < b.east, "{a:?}");
        }
    }
}

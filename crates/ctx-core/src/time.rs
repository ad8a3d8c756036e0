//! Timestamps: ISO-8601 UTC strings everywhere ctx stores or prints a time.

use std::time::{Duration, SystemTime, UNIX_EPOCH};

/// The current time as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
pub fn now_iso() -> String {
    iso(SystemTime::now())
}

/// The last millisecond RFC 3339 can write (9999-12-31T23:59:59.999Z).
const LAST: Duration = Duration::from_millis(253_402_300_799_999);

/// `t` as `YYYY-MM-DDTHH:MM:SS.mmmZ`; times before 1970 clamp to the
/// epoch, times after the year 9999 to its last millisecond.
pub fn iso(t: SystemTime) -> String {
    humantime::format_rfc3339_millis(t.clamp(UNIX_EPOCH, UNIX_EPOCH + LAST)).to_string()
}

/// Nanoseconds since the epoch, clamped to the range of `i64` (and 0 before 1970).
pub fn unix_nanos(t: SystemTime) -> i64 {
    t.duration_since(UNIX_EPOCH).map(|d| i64::try_from(d.as_nanos()).unwrap_or(i64::MAX)).unwrap_or(0)
}

/// The inverse of [`unix_nanos`].
pub fn from_unix_nanos(nanos: i64) -> SystemTime {
    UNIX_EPOCH + Duration::from_nanos(u64::try_from(nanos).unwrap_or(0))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn iso_formats_utc_with_millis() {
        let t = UNIX_EPOCH + Duration::from_millis(1_767_225_600_123);
        assert_eq!(iso(t), "2026-01-01T00:00:00.123Z");
    }

    #[test]
    fn times_rfc_3339_cannot_write_are_clamped() {
        assert_eq!(iso(UNIX_EPOCH - Duration::from_secs(1)), "1970-01-01T00:00:00.000Z");
        assert_eq!(iso(UNIX_EPOCH + Duration::from_secs(300_000_000_000)), "9999-12-31T23:59:59.999Z");
    }

    #[test]
    fn nanos_round_trip() {
        let t = UNIX_EPOCH + Duration::from_nanos(1_700_000_000_123_456_789);
        assert_eq!(from_unix_nanos(unix_nanos(t)), t);
    }
}

//! `bao admin arena` (docs/api.md, "Arenas"): the site's operators make arenas and series of
//! them, shown as the site, list the series and stop one, acting on the database directly (a
//! running server hears of a new arena by its event on PostgreSQL, by its safety sweep on
//! SQLite).

use crate::store::{Durability, Store};

/// What `bao admin arena` does.
pub enum AdminArena {
    /// Makes an arena from the fields of `POST /api/arenas`.
    Create(serde_json::Value),
    /// Lists the series.
    List,
    /// Stops a series: no more arenas are made.
    Stop(String),
}

/// Runs `cmd` on `database` on a runtime of its own; what to print, or why it failed.
pub fn run_blocking(database: &str, cmd: AdminArena) -> Result<String, String> {
    let rt = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .map_err(|e| e.to_string())?;
    rt.block_on(async {
        let store = Store::open(database, Durability::Full)
            .await
            .map_err(|e| e.to_string())?;
        let now = crate::util::now_ms();
        match cmd {
            AdminArena::Create(body) => {
                let a = super::make_for_site(&store, body, now)
                    .await
                    .map_err(|e| e.message)?;
                let mut out = format!(
                    "arena {} made: /a/{}, starts {} UTC",
                    a.id,
                    a.id,
                    fmt_utc(a.starts_at)
                );
                if let (Some(s), Some(r)) = (&a.series, &a.repeats) {
                    out.push_str(&format!(
                        "\nseries {s}: {r}, the next made as each one starts"
                    ));
                }
                Ok(out)
            }
            AdminArena::List => {
                let mut out = String::new();
                for (id, repeats, last, stopped) in
                    store.arena_series_list().await.map_err(|e| e.to_string())?
                {
                    let name = store
                        .arena_series_newest(&id)
                        .await
                        .map_err(|e| e.to_string())?
                        .map_or_else(String::new, |a| a.name);
                    out.push_str(&format!(
                        "{id}\t{repeats}\tnewest {} UTC\t{}\t{name}\n",
                        fmt_utc(last),
                        if stopped { "stopped" } else { "running" }
                    ));
                }
                if out.is_empty() {
                    out.push_str("no series yet\n");
                }
                Ok(out.trim_end().to_string())
            }
            AdminArena::Stop(id) => {
                if store
                    .stop_arena_series(&id)
                    .await
                    .map_err(|e| e.to_string())?
                {
                    Ok(format!(
                        "series {id} stopped: no more arenas; those made stay"
                    ))
                } else {
                    Err(format!("there is no running series {id}"))
                }
            }
        }
    })
}

/// Days since 1970-01-01 of a civil date (proleptic Gregorian).
fn days_from_civil(y: i64, m: i64, d: i64) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = y.div_euclid(400);
    let yoe = y - era * 400;
    let doy = (153 * (m + if m > 2 { -3 } else { 9 }) + 2) / 5 + d - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146_097 + doe - 719_468
}

/// `YYYY-MM-DDTHH:MM[:SS]Z` (UTC) as ms since the epoch.
pub fn parse_utc(s: &str) -> Option<i64> {
    let s = s
        .trim()
        .strip_suffix('Z')
        .or_else(|| s.trim().strip_suffix('z'))?;
    let (date, time) = s.split_once(['T', 't', ' '])?;
    let d: Vec<i64> = date
        .split('-')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    let t: Vec<i64> = time
        .split(':')
        .map(|x| x.parse().ok())
        .collect::<Option<_>>()?;
    let ([y, mo, da], [h, mi, rest @ ..]) = (d.as_slice(), t.as_slice()) else {
        return None;
    };
    let sec = rest.first().copied().unwrap_or(0);
    let ok = (1..=12).contains(mo)
        && (1..=31).contains(da)
        && (0..24).contains(h)
        && (0..60).contains(mi)
        && (0..60).contains(&sec)
        && rest.len() <= 1;
    ok.then(|| ((days_from_civil(*y, *mo, *da) * 24 + h) * 60 + mi) * 60_000 + sec * 1000)
}

/// ms since the epoch as `YYYY-MM-DD HH:MM` (UTC).
pub fn fmt_utc(ms: i64) -> String {
    let mins = ms.div_euclid(60_000);
    let (days, m) = (mins.div_euclid(1440), mins.rem_euclid(1440));
    // The inverse of days_from_civil.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let mo = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(mo <= 2);
    format!("{y:04}-{mo:02}-{d:02} {:02}:{:02}", m / 60, m % 60)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_times_read_and_print_back() {
        assert_eq!(parse_utc("1970-01-01T00:00Z"), Some(0));
        let t = parse_utc("2026-12-12T16:30:00Z").unwrap();
        assert_eq!(t, 1_797_093_000_000);
        assert_eq!(fmt_utc(t), "2026-12-12 16:30");
        assert_eq!(
            fmt_utc(parse_utc("2028-02-29T23:59Z").unwrap()),
            "2028-02-29 23:59"
        );
        assert_eq!(parse_utc("2026-13-01T00:00Z"), None);
        assert_eq!(parse_utc("2026-12-12T16:30"), None, "UTC is said");
    }
}

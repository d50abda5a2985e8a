//! Club, private and recurring arenas, the calendar and the reminder on SQLite: the flows of
//! tests/common/calendar.rs.

mod common;
use common::calendar::*;
use common::sqlite_url;

#[tokio::test]
async fn sqlite_club_and_private_arenas() {
    club_and_private_arenas(&sqlite_url("cal_club")).await;
}

#[tokio::test]
async fn sqlite_reminder_once() {
    reminder_once(&sqlite_url("cal_remind"), 1).await;
}

#[tokio::test]
async fn sqlite_series_once() {
    series_once(&sqlite_url("cal_series"), 1).await;
}

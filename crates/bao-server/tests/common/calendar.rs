//! Club, private and recurring arenas, the calendar and the reminder before an arena's start
//! (docs/api.md, "Arenas" and "Calendar"), over real HTTP on SQLite (tests/calendar_sqlite.rs)
//! and PostgreSQL (tests/calendar_postgres.rs). Each refusal also reads back what the refused
//! player would have changed. The server's clock is a manual one: the reminder, the start
//! and the next arena of a series come when the test moves it.

use super::accounts::{account_id, base, get, post};
use super::clubs::{act as club_act, new_club};
use super::ratings::account;
use super::tournaments::quick;
use super::*;
use bao_server::game::{Alert, AlertKind, Recipient};
use serde_json::json;
use std::sync::Arc;
use tokio::sync::broadcast;

/// The body of `POST /api/arenas`: a ten-minute kete arena starting at `starts_at`.
pub fn arena_body(name: &str, starts_at: i64) -> Value {
    json!({"name": name, "variant": "kete",
           "clock": {"initial_ms": 180000, "increment_ms": 2000},
           "rated": false, "starts_at": starts_at, "minutes": 10, "berserk": false})
}

/// `body` with `extra`'s fields.
fn with(mut body: Value, extra: Value) -> Value {
    for (k, v) in extra.as_object().unwrap() {
        body[k] = v.clone();
    }
    body
}

/// The calendar as `cookie` sees it.
pub async fn calendar(b: &str, cookie: Option<&str>) -> Value {
    let a = get(b, "/api/calendar", cookie).await;
    assert_eq!(a.status, 200, "{}", a.text);
    a.json
}

/// The calendar's event of arena `id`, if listed.
fn event<'a>(cal: &'a Value, id: &str) -> Option<&'a Value> {
    cal["events"]
        .as_array()
        .unwrap()
        .iter()
        .find(|e| e["id"] == id)
}

/// The names of arena `id`'s players.
async fn players_of(b: &str, id: &str) -> Vec<String> {
    let v = get(b, &format!("/api/arenas/{id}"), None).await.json;
    v["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["username"].as_str().unwrap().to_string())
        .collect()
}

/// Club arenas are made by the club's leaders and admins and joined by its members only;
/// a series is made by its leaders only; a private arena is not listed (in the arenas nor
/// the calendar) but joined by its link; the calendar lists the rest in start order, with
/// the club's name and whether the player joined or may join.
pub async fn club_and_private_arenas(url: &str) {
    let clock = manual_clock();
    let s = server(url).clock(&clock).start().await;
    let b = base(&s);
    let (_asha, a) = account(&b, "asha").await;
    let (baraka, bk) = account(&b, "baraka").await;
    let (chausiku, ch) = account(&b, "chausiku").await;
    let (dogo, dg) = account(&b, "dogo").await;
    let club = new_club(&b, &a, "Chama cha Bao Mombasa", "Mombasa", true).await;
    for c in [&bk, &ch] {
        assert_eq!(
            club_act(&b, &club, "join", json!({}), Some(c)).await.status,
            200
        );
    }
    let r = club_act(
        &b,
        &club,
        "role",
        json!({"username": baraka, "role": "admin"}),
        Some(&a),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let now = clock.now_ms();
    let at = |m: i64| now + m * 60_000;

    // Hostile: a member and an outsider cannot make the club's arenas, an admin cannot make
    // its series; nothing is listed after their tries.
    for (who, extra, error) in [
        (&ch, json!({"club": club}), "not_club_leader"),
        (&dg, json!({"club": club}), "not_club_leader"),
        (
            &bk,
            json!({"club": club, "repeat": "weekly"}),
            "not_club_leader",
        ),
        (&dg, json!({"repeat": "daily"}), "forbidden"),
    ] {
        let r = post(
            &b,
            "/api/arenas",
            with(arena_body("Uwanja wa wageni", at(30)), extra.clone()),
            Some(who),
        )
        .await;
        assert_eq!(
            (r.status, r.json["error"].as_str()),
            (403, Some(error)),
            "{extra}: {}",
            r.text
        );
    }
    let r = post(
        &b,
        "/api/arenas",
        with(arena_body("x", at(30)), json!({"club": "zzzzzzzzzz"})),
        Some(&a),
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (404, Some("no_such_club")),
        "{}",
        r.text
    );
    let r = post(
        &b,
        "/api/arenas",
        with(
            arena_body("x", at(30)),
            json!({"club": club, "repeat": "monthly"}),
        ),
        Some(&a),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.text);
    let cal = calendar(&b, None).await;
    assert!(cal["events"].as_array().unwrap().is_empty(), "{cal}");

    // An admin makes a club arena; the leader a weekly one; an outsider a private one and
    // an open one.
    let made = |body: Value, c: String| {
        let b = b.clone();
        async move {
            let r = post(&b, "/api/arenas", body, Some(&c)).await;
            assert_eq!(r.status, 201, "{}", r.text);
            r.json
        }
    };
    let club_arena = made(
        with(arena_body("Uwanja wa chama", at(40)), json!({"club": club})),
        bk.clone(),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let weekly = made(
        with(
            arena_body("Uwanja wa Jumamosi", at(20)),
            json!({"club": club, "repeat": "weekly"}),
        ),
        a.clone(),
    )
    .await;
    assert!(weekly["series"].is_string(), "{weekly}");
    let weekly = weekly["id"].as_str().unwrap().to_string();
    let private = made(
        with(
            arena_body("Uwanja wa siri", at(10)),
            json!({"private": true}),
        ),
        dg.clone(),
    )
    .await["id"]
        .as_str()
        .unwrap()
        .to_string();
    let open = made(arena_body("Uwanja wa wote", at(30)), dg.clone()).await["id"]
        .as_str()
        .unwrap()
        .to_string();

    // Hostile: an outsider cannot join the club's arena; a member and the admin can.
    let r = post(
        &b,
        &format!("/api/arenas/{club_arena}/join"),
        json!({}),
        Some(&dg),
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (409, Some("not_club_member")),
        "{}",
        r.text
    );
    for c in [&ch, &bk] {
        let r = post(
            &b,
            &format!("/api/arenas/{club_arena}/join"),
            json!({}),
            Some(c),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let mut joined = players_of(&b, &club_arena).await;
    joined.sort();
    let mut want = vec![baraka.clone(), chausiku.clone()];
    want.sort();
    assert_eq!(joined, want, "only members joined");

    // The private arena: unlisted, joined by its link.
    let list = get(&b, "/api/arenas?status=upcoming", None).await.json;
    let ids: Vec<&str> = list["arenas"]
        .as_array()
        .unwrap()
        .iter()
        .map(|x| x["id"].as_str().unwrap())
        .collect();
    assert!(!ids.contains(&private.as_str()), "{list}");
    assert!(ids.contains(&open.as_str()), "{list}");
    let r = post(
        &b,
        &format!("/api/arenas/{private}/join"),
        json!({}),
        Some(&a),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let v = get(&b, &format!("/api/arenas/{private}"), None).await.json;
    assert_eq!(v["private"], true, "{v}");

    // The calendar: the listed ones in start order, with the club and who may join.
    let r = post(
        &b,
        &format!("/api/arenas/{open}/join"),
        json!({}),
        Some(&ch),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let cal = calendar(&b, Some(&dg)).await;
    let order: Vec<&str> = cal["events"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| e["id"].as_str().unwrap())
        .collect();
    assert_eq!(
        order,
        [weekly.as_str(), open.as_str(), club_arena.as_str()],
        "{cal}"
    );
    let e = event(&cal, &club_arena).unwrap();
    assert_eq!(e["kind"], "arena");
    assert_eq!(
        e["club"],
        json!({"id": club, "name": "Chama cha Bao Mombasa"})
    );
    assert_eq!(e["players"], 2);
    assert_eq!(e["minutes"], 10);
    assert_eq!(e["starts_at"], at(40));
    assert_eq!(
        e["clock"],
        json!({"initial_ms": 180000, "increment_ms": 2000})
    );
    assert_eq!(e["organiser"], baraka.as_str());
    assert_eq!(
        e["you"],
        json!({"joined": false, "may_join": false}),
        "{cal}"
    );
    assert_eq!(event(&cal, &weekly).unwrap()["repeat"], "weekly");
    assert_eq!(
        event(&cal, &open).unwrap()["you"],
        json!({"joined": false, "may_join": true})
    );
    let cal = calendar(&b, Some(&ch)).await;
    assert_eq!(
        event(&cal, &club_arena).unwrap()["you"],
        json!({"joined": true, "may_join": true})
    );
    assert_eq!(event(&cal, &open).unwrap()["you"]["joined"], true);
    // Signed out: no "you".
    let cal = calendar(&b, None).await;
    assert!(event(&cal, &open).unwrap().get("you").is_none(), "{cal}");
    let _ = dogo;
    s.stop().await;
}

/// The alerts `rx` has received so far.
fn drain(rx: &mut broadcast::Receiver<Arc<Alert>>) -> Vec<Arc<Alert>> {
    let mut out = Vec::new();
    while let Ok(a) = rx.try_recv() {
        out.push(a);
    }
    out
}

/// The players who joined an arena are told once, five minutes before its start, even with
/// `instances` instances on the database (each has its timer); and when each arena game of
/// theirs is made. A player who joins after the reminder is not told twice.
pub async fn reminder_once(url: &str, instances: usize) {
    let clock = manual_clock();
    let cfg = server(url).clock(&clock).lifecycle(quick());
    let (s1, s2) = if instances == 2 {
        let (x, y) = cfg.start_two().await;
        (x, Some(y))
    } else {
        (cfg.start().await, None)
    };
    let all: Vec<&Running> = std::iter::once(&s1).chain(s2.iter()).collect();
    let bases: Vec<String> = all.iter().map(|s| base(s)).collect();
    let b = &bases[0];
    let (asha, a) = account(b, "asha").await;
    let (baraka, bk) = account(b, "baraka").await;
    let starts_at = clock.now_ms() + 20 * 60_000;
    let r = post(
        b,
        "/api/arenas",
        arena_body("Uwanja wa saa nne", starts_at),
        Some(&a),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let id = r.json["id"].as_str().unwrap().to_string();
    for (i, c) in [&a, &bk].into_iter().enumerate() {
        let r = post(
            &bases[i % bases.len()],
            &format!("/api/arenas/{id}/join"),
            json!({}),
            Some(c),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let mut rx: Vec<_> = all.iter().map(|s| s.app.games.alerts.subscribe()).collect();
    let soon = |rx: &mut Vec<broadcast::Receiver<Arc<Alert>>>| -> Vec<Arc<Alert>> {
        rx.iter_mut()
            .flat_map(drain)
            .filter(|a| matches!(a.kind, AlertKind::ArenaSoon { .. }))
            .collect()
    };
    // Sixteen minutes before: nothing yet (every instance's sweep has run meanwhile).
    clock.advance(Duration::from_secs(4 * 60));
    for s in &all {
        bao_server::features::arenas::run::sweep(&s.app.games)
            .await
            .unwrap();
    }
    assert!(soon(&mut rx).is_empty());
    // Five minutes before: told once, both of them.
    clock.advance(Duration::from_secs(11 * 60));
    let ids = vec![account_id(&s1, &asha).await, account_id(&s1, &baraka).await];
    let mut told = Vec::new();
    eventually_within("the reminder", EVENTUALLY, || {
        told.extend(soon(&mut rx));
        let n = told.len();
        async move { n > 0 }
    })
    .await;
    // Every instance's sweep and timer have had their go: still one.
    for s in &all {
        bao_server::features::arenas::run::sweep(&s.app.games)
            .await
            .unwrap();
        bao_server::features::arenas::run::due(&s.app.games, &id)
            .await
            .unwrap();
    }
    told.extend(soon(&mut rx));
    assert_eq!(
        told.len(),
        1,
        "one reminder, not one per instance: {told:?}"
    );
    let Recipient::Accounts(mut to) = told[0].to.clone() else {
        panic!("{told:?}")
    };
    to.sort();
    let mut sorted = ids.clone();
    sorted.sort();
    assert_eq!(to, sorted, "both players told");
    let p = s1
        .app
        .push
        .payload(&told[0].kind, bao_server::web::i18n::Lang::Sw);
    assert_eq!(p["title"], "Uwanja wa saa nne inaanza baada ya dakika tano");
    assert_eq!(p["url"], format!("/a/{id}"));
    let p = s1
        .app
        .push
        .payload(&told[0].kind, bao_server::web::i18n::Lang::En);
    assert_eq!(p["title"], "Uwanja wa saa nne starts in five minutes");

    // The start: their game is made and each is told of it, once.
    clock.advance(Duration::from_secs(5 * 60));
    let game = eventually_some("the arena's first game", || async {
        let v = get(b, &format!("/api/arenas/{id}"), None).await.json;
        v["games"][0]["game"].as_str().map(str::to_string)
    })
    .await;
    let mut starts: Vec<Arc<Alert>> = Vec::new();
    eventually_within("both told of their game", EVENTUALLY, || {
        for r in rx.iter_mut() {
            starts.extend(
                drain(r).into_iter().filter(
                    |a| matches!(&a.kind, AlertKind::GameStart { game: g, .. } if *g == game),
                ),
            );
        }
        let n = starts.len();
        async move { n >= 2 }
    })
    .await;
    let mut to: Vec<Recipient> = starts.iter().map(|a| a.to.clone()).collect();
    to.sort_by_key(|r| format!("{r:?}"));
    let mut want: Vec<Recipient> = ids.iter().cloned().map(Recipient::Account).collect();
    want.sort_by_key(|r| format!("{r:?}"));
    assert_eq!(to, want, "each player told once of their game: {starts:?}");
    assert!(soon(&mut rx).is_empty(), "no reminder after the start");
    for s in all {
        let _ = s;
    }
}

/// A weekly series: its next arena is made when the newest starts, exactly once even with
/// `instances` instances acting on it at the same moment, a week later, with the same
/// terms, club and name; the site's operators make one shown as the site.
pub async fn series_once(url: &str, instances: usize) {
    let clock = manual_clock();
    let cfg = server(url).clock(&clock).lifecycle(quick());
    let (s1, s2) = if instances == 2 {
        let (x, y) = cfg.start_two().await;
        (x, Some(y))
    } else {
        (cfg.start().await, None)
    };
    let all: Vec<&Running> = std::iter::once(&s1).chain(s2.iter()).collect();
    let b = base(&s1);
    let (_asha, a) = account(&b, "asha").await;
    let club = new_club(&b, &a, "Chama cha Bao Tanga", "Tanga", true).await;
    let week = 7 * 24 * 3600 * 1000_i64;
    let starts_at = clock.now_ms() + 60_000;
    let r = post(
        &b,
        "/api/arenas",
        with(
            arena_body("Uwanja wa kila wiki", starts_at),
            json!({"club": club, "repeat": "weekly"}),
        ),
        Some(&a),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let series = r.json["series"].as_str().unwrap().to_string();
    let first = r.json["id"].as_str().unwrap().to_string();
    // The site's operators (`bao admin arena create`): a daily one shown as the site.
    let site = bao_server::features::arenas::make_for_site(
        &s1.app.store,
        with(
            arena_body("Uwanja wa kila siku", starts_at + 30_000),
            json!({"repeat": "daily"}),
        ),
        clock.now_ms(),
    )
    .await
    .unwrap();
    let of_series = |sid: String| {
        let b = b.clone();
        async move {
            let cal = calendar(&b, None).await;
            let mut v: Vec<Value> = cal["events"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["series"] == sid.as_str())
                .cloned()
                .collect();
            v.sort_by_key(|e| e["starts_at"].as_i64());
            v
        }
    };
    assert_eq!(of_series(series.clone()).await.len(), 1);
    let v = get(&b, &format!("/api/arenas/{}", site.id), None)
        .await
        .json;
    assert_eq!(v["organiser"], Value::Null, "shown as the site: {v}");
    assert_eq!(v["repeat"], "daily");

    // The first starts (and the daily one): the next exists a week later, made once.
    clock.advance(Duration::from_secs(91));
    let both = || async {
        let runs = all
            .iter()
            .map(|s| bao_server::features::arenas::run::series(&s.app.games));
        for r in futures_util::future::join_all(runs).await {
            r.unwrap();
        }
    };
    eventually("the series' next arena", || {
        let f = of_series(series.clone());
        async move { f.await.len() == 2 }
    })
    .await;
    both().await;
    both().await;
    let v = of_series(series.clone()).await;
    assert_eq!(v.len(), 2, "made once: {v:?}");
    assert_eq!(v[0]["id"], first.as_str());
    assert_eq!(v[1]["starts_at"], starts_at + week);
    assert_eq!(v[1]["name"], "Uwanja wa kila wiki");
    assert_eq!(v[1]["club"]["id"], club.as_str());
    assert_eq!(v[1]["status"], "upcoming");
    // The site's daily one has its next too (it started at the same time).
    let d = of_series(site.series.clone().unwrap()).await;
    assert_eq!(d.len(), 2, "{d:?}");
    assert_eq!(d[1]["starts_at"], starts_at + 30_000 + 24 * 3600 * 1000);
    assert_eq!(d[1]["organiser"], Value::Null);

    // A week on, the second starts and the third is made; still one at a time.
    clock.advance(Duration::from_millis(week as u64));
    eventually("the series' third arena", || {
        let f = of_series(series.clone());
        async move {
            // The third made, the second started and the first over (the deadlines and the
            // sweep each do their part).
            let v = f.await;
            v.len() == 2 && v[1]["starts_at"] == starts_at + 2 * week && v[0]["status"] == "running"
        }
    })
    .await;
    both().await;
    let v = of_series(series.clone()).await;
    let upcoming: Vec<&Value> = v.iter().filter(|e| e["status"] == "upcoming").collect();
    assert_eq!(upcoming.len(), 1, "{v:?}");
    assert_eq!(upcoming[0]["starts_at"], starts_at + 2 * week);
    // The first is over (off the calendar), the second runs: one of each start.
    assert_eq!(v.len(), 2, "{v:?}");
    assert_eq!(v[0]["starts_at"], starts_at + week);

    // Stopping the series: its club's leaders only (HTTP), the site's by its operators.
    let (_, member) = account(&b, "baraka").await;
    let (_, outsider) = account(&b, "chiku").await;
    let j = club_act(&b, &club, "join", json!({}), Some(&member)).await;
    assert_eq!(j.status, 200, "{}", j.text);
    let stop = |sid: &str, cookie: Option<&str>| {
        let (b, path) = (b.clone(), format!("/api/arenas/series/{sid}/stop"));
        let cookie = cookie.map(str::to_string);
        async move { post(&b, &path, json!({}), cookie.as_deref()).await }
    };
    let next = upcoming[0]["id"].as_str().unwrap().to_string();
    let view = |cookie: Option<&str>| {
        let (b, path) = (b.clone(), format!("/api/arenas/{next}"));
        let cookie = cookie.map(str::to_string);
        async move { get(&b, &path, cookie.as_deref()).await.json }
    };
    assert_eq!(view(Some(&a)).await["you"]["may_stop_series"], true);
    assert_eq!(view(Some(&member)).await["you"]["may_stop_series"], false);
    assert_eq!(view(Some(&a)).await["series"], series.as_str());
    for (who, status, category) in [
        (None, 401, None),
        (Some(member.as_str()), 403, Some("not_club_leader")),
        (Some(outsider.as_str()), 403, Some("not_club_leader")),
    ] {
        let r = stop(&series, who).await;
        assert_eq!(r.status, status, "{}", r.text);
        if let Some(c) = category {
            assert_eq!(r.json["error"], c, "{}", r.text);
        }
        assert_eq!(
            view(None).await["repeat"],
            "weekly",
            "refused: nothing changed"
        );
    }
    let r = stop(site.series.as_deref().unwrap(), Some(&a)).await;
    assert_eq!(r.status, 403, "the site's series: {}", r.text);
    assert_eq!(stop("zzzzzzzzzz", Some(&a)).await.status, 404);
    assert_eq!(stop("../x", Some(&a)).await.status, 404);
    let r = stop(&series, Some(&a)).await;
    assert_eq!(
        (r.status, &r.json),
        (200, &json!({"stopped": true})),
        "{}",
        r.text
    );
    let again = stop(&series, Some(&a)).await;
    assert_eq!(again.status, 200, "a second tap: {}", again.text);
    let v = view(Some(&a)).await;
    assert_eq!(v["repeat"], Value::Null, "no longer said to repeat: {v}");
    assert_eq!(v["you"]["may_stop_series"], false);
    // It starts a week on, and no arena comes after it.
    clock.advance(Duration::from_millis(week as u64));
    eventually("the last arena of the stopped series starts", || {
        let f = of_series(series.clone());
        async move {
            let v = f.await;
            v.iter()
                .any(|e| e["starts_at"] == starts_at + 2 * week && e["status"] == "running")
        }
    })
    .await;
    both().await;
    let v = of_series(series.clone()).await;
    assert!(
        v.iter().all(|e| e["status"] != "upcoming"),
        "nothing made after the stop: {v:?}"
    );
    // The site's daily series still runs: only the one asked was stopped.
    let d = of_series(site.series.clone().unwrap()).await;
    assert!(d.iter().any(|e| e["status"] == "upcoming"), "{d:?}");
}

//! Fair play (docs/api.md, "Fair play"), shared by SQLite and PostgreSQL: games made by the
//! test, the analysis of rated games, reports, moderators, marks and refunds.

use super::accounts::{account_id, base, get, post};
use super::ratings::{account, join_seat, one_move_then_north_resigns, profile};
use super::*;
use bao_engine::level::Level;
use bao_rules::{Game, Position, Rules, Variant};
use bao_server::domain::rating::Stored;
use bao_server::features::fairplay::FairPlayConfig;
use serde_json::json;

/// A rated kete game made by `cookie` (South), joined by `other`: (id, south, north).
async fn rated_pair(b: &str, cookie: &str, other: &str) -> (String, String, String) {
    let a = post(
        b,
        "/api/games",
        json!({"variant": "kete", "opponent": {"kind": "human"}, "side": "S",
               "match": "single_game", "rated": true}),
        Some(cookie),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    let south = a.json["token"].as_str().unwrap().to_string();
    let invite = a.json["invite"].as_str().unwrap().to_string();
    let north = join_seat(b, &id, &invite, Some(other)).await;
    (id, south, north)
}

/// Plays game `id` to its end: each side's move chosen by its level (`None`: the engine
/// at the analysis's own budget), the side to move resigning after `cap` plies.
async fn play_out(c: &Client, id: &str, tokens: [&str; 2], levels: [Level; 2], seed: u64) {
    let rules = Rules::new(Variant::Kete);
    let mut game = Game::new(Position::start(&rules), rules);
    let mut searchers = levels.map(|l| l.searcher(&rules));
    let cap = 160;
    for ply in 0..cap {
        if game.outcome() != bao_rules::Outcome::Ongoing {
            return;
        }
        let p = ply % 2;
        let mv = levels[p]
            .choose(
                &mut searchers[p],
                game.position(),
                game.positions(),
                seed + ply as u64,
            )
            .expect("a legal move while the game goes on");
        let r = c.play(id, tokens[p], &mv.mv.to_string(), ply as u64).await;
        assert_eq!(r.status, 200, "ply {ply}: {}", r.text);
        game.play(&mv);
    }
    if game.outcome() == bao_rules::Outcome::Ongoing {
        let r = c.resign(id, tokens[cap % 2], 1, cap as u64).await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
}

async fn make_moderator(s: &Running, name: &str) {
    assert!(s
        .app
        .store
        .set_moderator(&name.to_ascii_lowercase(), true)
        .await
        .unwrap());
}

/// An account that plays the engine's move at the analysis's budget stands out among
/// players who play like the level-3 computer; none of those does.
pub async fn engine_follower_stands_out(url: &str) {
    // The analysis at level 5's budget: the follower plays level 5 (no noise).
    let budget = Level::get(5).limits_for(Variant::Kete);
    let s = server(url)
        .with(|c| c.fair_play = FairPlayConfig { limits: budget })
        .start()
        .await;
    let c = Client::new(&s);
    let b = &base(&s);
    let mut honest = Vec::new();
    for tag in ["Hawa", "Juma", "Neema", "Omari"] {
        honest.push(account(b, tag).await);
    }
    let (cheat, cc) = account(b, "Copy").await;
    let (modname, mc) = account(b, "Mod").await;
    make_moderator(&s, &modname).await;
    let three = Level::get(3);
    let five = Level::get(5);
    let mut seed = 1;
    let mut games = 0;
    // Each honest pair twice, each side South once.
    for i in 0..honest.len() {
        for j in 0..honest.len() {
            if i == j {
                continue;
            }
            let (id, south, north) = rated_pair(b, &honest[i].1, &honest[j].1).await;
            play_out(&c, &id, [&south, &north], [three, three], seed).await;
            seed += 1000;
            games += 1;
        }
    }
    // The follower against each honest player, once as South and once as North.
    for (k, (_, hc)) in honest.iter().enumerate() {
        let (id, south, north) = rated_pair(b, &cc, hc).await;
        play_out(&c, &id, [&south, &north], [five, three], seed).await;
        seed += 1000;
        games += 1;
        if k < 4 {
            let (id, south, north) = rated_pair(b, hc, &cc).await;
            play_out(&c, &id, [&south, &north], [three, five], seed).await;
            seed += 1000;
            games += 1;
        }
    }
    // Every game analysed (in the background: wait for the state, not a time).
    let analysed = |name: String| {
        let mc = mc.clone();
        async move {
            let a = get(b, &format!("/api/mod/users/{name}"), Some(&mc)).await;
            assert_eq!(a.status, 200, "{}", a.text);
            a.json["variants"][0]["games"]
                .as_array()
                .map_or(0, |g| g.len())
        }
    };
    eventually_within(
        "every rated game analysed",
        Duration::from_secs(600),
        || async {
            let mut n = analysed(cheat.clone()).await;
            for (h, _) in &honest {
                n += analysed(h.clone()).await;
            }
            // Each game has two sides; the follower's 6 games count once in its own list
            // and once in an honest player's.
            n == 2 * games
        },
    )
    .await;
    let q = get(b, "/api/mod/queue", Some(&mc)).await;
    assert_eq!(q.status, 200, "{}", q.text);
    let out: Vec<&str> = q.json["standing_out"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| v["username"].as_str().unwrap())
        .collect();
    let detail = get(b, &format!("/api/mod/users/{cheat}"), Some(&mc)).await;
    println!("follower: {}", detail.json["variants"][0]["verdict"]);
    for (h, _) in &honest {
        let d = get(b, &format!("/api/mod/users/{h}"), Some(&mc)).await;
        println!("{h}: {}", d.json["variants"][0]["verdict"]);
    }
    assert_eq!(out, vec![cheat.as_str()], "{}", q.text);
}

/// Reports, the moderators' calls and their refusals, warnings shown to the player, a mark
/// that gives back each victim's rating loss once and keeps the account out of rated
/// competition.
pub async fn reports_and_moderation(url: &str) {
    let s = server(url).start().await;
    let c = Client::new(&s);
    let b = &base(&s);
    let (cheat, cc) = account(b, "Copy").await;
    let (victim, vc) = account(b, "Victim").await;
    let (other, oc) = account(b, "Other").await;
    let (modname, mc) = account(b, "Mod").await;
    make_moderator(&s, &modname).await;

    // The follower beats both others in rated games (one move, then a resignation).
    let mut ids = Vec::new();
    for opp in [&vc, &oc] {
        let (id, south, north) = rated_pair(b, &cc, opp).await;
        one_move_then_north_resigns(&c, &id, &south, &north).await;
        super::ratings::wait_rated(&c, &id).await;
        ids.push(id);
    }
    let rating = |name: String| async move {
        let p = profile(b, &name).await;
        p.json["ratings"]["kete"]["rating"].as_i64().unwrap()
    };
    let lost = [rating(victim.clone()).await, rating(other.clone()).await];
    assert!(lost.iter().all(|r| *r < 1500), "{lost:?}");

    // Reports: refusals first, each naming what is wrong.
    let report = |who: Option<String>, body: Value| async move {
        post(b, "/api/reports", body, who.as_deref()).await
    };
    let body = json!({"username": cheat, "reason": "always the engine's move"});
    assert_eq!(report(None, body.clone()).await.status, 401);
    let r = report(Some(cc.clone()), json!({"username": cheat, "reason": "me"})).await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = report(
        Some(vc.clone()),
        json!({"username": "nobody_here", "reason": "x"}),
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (404, Some("no_such_user")),
        "{}",
        r.text
    );
    let r = report(
        Some(vc.clone()),
        json!({"username": cheat, "reason": " \u{200b} "}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = report(
        Some(vc.clone()),
        json!({"username": cheat, "reason": "x".repeat(501)}),
    )
    .await;
    assert_eq!(r.status, 400, "{}", r.text);
    let r = report(
        Some(oc.clone()),
        json!({"username": victim, "game": ids[1], "reason": "not their game"}),
    )
    .await;
    assert!(
        r.status == 400 && r.text.contains("not one of"),
        "{}",
        r.text
    );
    let first = report(
        Some(vc.clone()),
        json!({"username": cheat, "game": ids[0], "reason": "every move the engine's"}),
    )
    .await;
    assert_eq!(first.status, 201, "{}", first.text);
    let again = report(Some(vc.clone()), body.clone()).await;
    assert_eq!(
        (again.status, &again.json["id"]),
        (200, &first.json["id"]),
        "{}",
        again.text
    );

    // Only moderators see the queue or act.
    for who in [None, Some(vc.clone()), Some(cc.clone())] {
        let q = get(b, "/api/mod/queue", who.as_deref()).await;
        assert_eq!(
            q.status,
            if who.is_none() { 401 } else { 403 },
            "{}",
            q.text
        );
        let q = get(b, &format!("/api/mod/users/{cheat}"), who.as_deref()).await;
        assert_eq!(
            q.status,
            if who.is_none() { 401 } else { 403 },
            "{}",
            q.text
        );
        let a = post(
            b,
            &format!("/api/mod/users/{victim}/action"),
            json!({"action": "mark", "reason": "revenge"}),
            who.as_deref(),
        )
        .await;
        assert_eq!(
            a.status,
            if who.is_none() { 401 } else { 403 },
            "{}",
            a.text
        );
        if who.is_some() {
            assert_eq!(a.json["error"], "not_moderator");
        }
    }
    assert_eq!(
        rating(victim.clone()).await,
        lost[0],
        "a refused mark changed nothing"
    );
    let q = get(b, "/api/mod/queue", Some(&mc)).await;
    assert_eq!(q.status, 200, "{}", q.text);
    let reports = q.json["reports"].as_array().unwrap();
    assert_eq!(reports.len(), 1, "{}", q.text);
    assert_eq!(reports[0]["username"], cheat.as_str());
    assert_eq!(reports[0]["reporter"], victim.as_str());
    assert_eq!(reports[0]["game"], ids[0].as_str());

    // A warning: logged, shown to the player (without the moderator's name).
    let act = |action: &'static str, reason: &'static str| {
        let mc = mc.clone();
        let cheat = cheat.clone();
        async move {
            post(
                b,
                &format!("/api/mod/users/{cheat}/action"),
                json!({"action": action, "reason": reason}),
                Some(&mc),
            )
            .await
        }
    };
    let bad = act("ban", "no such action").await;
    assert_eq!(bad.status, 400, "{}", bad.text);
    let w = act("warn", "your moves match the engine's too often").await;
    assert_eq!(w.status, 200, "{}", w.text);
    let mine = get(b, "/api/fair-play/mine", Some(&cc)).await;
    assert_eq!(mine.json["marked"], false, "{}", mine.text);
    assert_eq!(
        mine.json["actions"][0]["reason"],
        "your moves match the engine's too often"
    );
    assert!(!mine.text.contains(&modname), "{}", mine.text);

    // On the leaderboard before the mark (its rating set as a settled player's).
    let cid = account_id(&s, &cheat).await;
    let now = s.app.games.clock.now_ms();
    let settled = Stored {
        rating: 1900.0,
        rd: 60.0,
        volatility: 0.06,
        games: 30,
        last_played: Some(now),
    };
    s.app
        .store
        .set_rating(&cid, "kimasai", &settled)
        .await
        .unwrap();
    let board = get(b, "/api/leaderboard?variant=kimasai", None).await;
    assert!(board.text.contains(&cheat), "{}", board.text);

    // The mark: every victim's loss given back once, the reports closed.
    let m = act("mark", "engine moves in every game").await;
    assert_eq!(m.status, 200, "{}", m.text);
    assert_eq!(
        (m.json["changed"].as_bool(), m.json["refunds"].as_i64()),
        (Some(true), Some(2)),
        "{}",
        m.text
    );
    assert_eq!(m.json["closed"], 1, "{}", m.text);
    assert_eq!(
        rating(victim.clone()).await,
        1500,
        "the victim's loss given back"
    );
    assert_eq!(
        rating(other.clone()).await,
        1500,
        "the victim's loss given back"
    );
    // Again, and after taking the mark away and giving it again: nothing twice.
    let m2 = act("mark", "again").await;
    assert_eq!(
        (m2.json["changed"].as_bool(), m2.json["refunds"].as_i64()),
        (Some(false), Some(0)),
        "{}",
        m2.text
    );
    assert_eq!(act("unmark", "a mistake").await.json["changed"], true);
    let m3 = act("mark", "no, it was right").await;
    assert_eq!(
        (m3.json["changed"].as_bool(), m3.json["refunds"].as_i64()),
        (Some(true), Some(0)),
        "{}",
        m3.text
    );
    assert_eq!(rating(victim.clone()).await, 1500);
    let q = get(b, "/api/mod/queue", Some(&mc)).await;
    assert_eq!(q.json["reports"].as_array().unwrap().len(), 0, "{}", q.text);

    // Out of rated competition, told in words; the player sees the mark and its reason.
    let board = get(b, "/api/leaderboard?variant=kimasai", None).await;
    assert!(!board.text.contains(&cheat), "{}", board.text);
    let t = post(
        b,
        "/api/arenas",
        json!({"name": "Lunch", "variant": "kete", "clock": {"initial_ms": 180000, "increment_ms": 2000}, "minutes": 30}),
        Some(&vc),
    )
    .await;
    assert_eq!(t.status, 201, "{}", t.text);
    let j = post(
        b,
        &format!("/api/arenas/{}/join", t.json["id"].as_str().unwrap()),
        json!({}),
        Some(&cc),
    )
    .await;
    assert_eq!(
        (j.status, j.json["error"].as_str()),
        (403, Some("engine_marked")),
        "{}",
        j.text
    );
    let p = post(
        b,
        "/api/pool",
        json!({"variant": "kete", "clock": {"initial_ms": 180000, "increment_ms": 2000}}),
        Some(&cc),
    )
    .await;
    assert_eq!(
        (p.status, p.json["error"].as_str()),
        (403, Some("engine_marked")),
        "{}",
        p.text
    );
    let mine = get(b, "/api/fair-play/mine", Some(&cc)).await;
    assert_eq!(mine.json["marked"], true, "{}", mine.text);
    assert_eq!(mine.json["actions"][0]["reason"], "no, it was right");
    let detail = get(b, &format!("/api/mod/users/{cheat}"), Some(&mc)).await;
    assert_eq!(detail.json["marked"], true);
    assert!(
        detail.json["actions"].as_array().unwrap().len() >= 5,
        "{}",
        detail.text
    );
}

/// Two moderators mark the same account at once on two instances: each victim's loss is
/// given back once.
pub async fn mark_once_across_instances(url: &str) {
    let (a, bb) = server(url).start_two().await;
    let (ba, bbase) = (base(&a), base(&bb));
    let c = Client::new(&a);
    let (cheat, cc) = account(&ba, "Copy").await;
    let mut victims = Vec::new();
    for tag in ["Amina", "Bakari", "Chausiku"] {
        victims.push(account(&ba, tag).await);
    }
    let (m1, c1) = account(&ba, "ModA").await;
    let (m2, c2) = account(&ba, "ModB").await;
    make_moderator(&a, &m1).await;
    make_moderator(&a, &m2).await;
    for (_, vc) in &victims {
        let (id, south, north) = rated_pair(&ba, &cc, vc).await;
        one_move_then_north_resigns(&c, &id, &south, &north).await;
        super::ratings::wait_rated(&c, &id).await;
    }
    let path = format!("/api/mod/users/{cheat}/action");
    let (x, y) = tokio::join!(
        post(
            &ba,
            &path,
            json!({"action": "mark", "reason": "one"}),
            Some(&c1)
        ),
        post(
            &bbase,
            &path,
            json!({"action": "mark", "reason": "two"}),
            Some(&c2)
        ),
    );
    assert_eq!((x.status, y.status), (200, 200), "{} {}", x.text, y.text);
    let changed = [&x, &y]
        .iter()
        .filter(|r| r.json["changed"] == true)
        .count();
    assert_eq!(changed, 1, "{} {}", x.text, y.text);
    let refunds = x.json["refunds"].as_i64().unwrap() + y.json["refunds"].as_i64().unwrap();
    assert_eq!(refunds, 3, "{} {}", x.text, y.text);
    for (v, _) in &victims {
        let p = profile(&bbase, v).await;
        assert_eq!(p.json["ratings"]["kete"]["rating"], 1500, "{}", p.text);
    }
}

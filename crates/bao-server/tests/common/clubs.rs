//! Club tests (docs/api.md, "Clubs") over real HTTP, on SQLite (tests/clubs_sqlite.rs) and
//! PostgreSQL (tests/clubs_postgres.rs) with the same code. Each hostile case checks what
//! the refused player would have changed, not only the refusal: without its defence the
//! state read back afterwards differs.

use super::accounts::{account_id, base, delete_json, get, post};
use super::ratings::account;
use super::*;
use bao_server::game::{AlertKind, Recipient};
use bao_server::store::{PushBounds, PushTarget};
use serde_json::json;

/// `POST /api/clubs` as `cookie`.
pub async fn create_club(b: &str, cookie: Option<&str>, body: Value) -> Answer {
    post(b, "/api/clubs", body, cookie).await
}

/// A club made by `cookie`: its id.
pub async fn new_club(b: &str, cookie: &str, name: &str, place: &str, open: bool) -> String {
    let a = create_club(
        b,
        Some(cookie),
        json!({"name": name, "description": "Tunacheza kila Jumamosi.", "place": place, "open": open}),
    )
    .await;
    assert_eq!(a.status, 201, "{}", a.text);
    let id = a.json["id"].as_str().unwrap().to_string();
    assert_eq!(a.json["url"], format!("/club/{id}"));
    id
}

/// `POST /api/clubs/{id}/{what}` with `body` as `cookie`.
pub async fn act(b: &str, id: &str, what: &str, body: Value, cookie: Option<&str>) -> Answer {
    post(b, &format!("/api/clubs/{id}/{what}"), body, cookie).await
}

/// `GET /api/clubs/{id}` as `cookie`: its JSON.
pub async fn club(b: &str, id: &str, cookie: Option<&str>) -> Value {
    let a = get(b, &format!("/api/clubs/{id}"), cookie).await;
    assert_eq!(a.status, 200, "{}", a.text);
    a.json
}

/// Every member of club `id` as (name, role), read page by page of `per_page`.
pub async fn all_members(b: &str, id: &str, per_page: usize) -> Vec<(String, String)> {
    let mut out = Vec::new();
    let mut cursor = String::new();
    loop {
        let a = get(
            b,
            &format!("/api/clubs/{id}/members?limit={per_page}&cursor={cursor}"),
            None,
        )
        .await;
        assert_eq!(a.status, 200, "{}", a.text);
        let page = a.json["members"].as_array().unwrap();
        assert!(page.len() <= per_page);
        for m in page {
            assert!(m["ratings"].is_object(), "{m}");
            out.push((
                m["username"].as_str().unwrap().to_string(),
                m["role"].as_str().unwrap().to_string(),
            ));
        }
        match a.json["next"].as_str() {
            Some(n) => cursor = n.to_string(),
            None => return out,
        }
    }
}

/// Every club the list finds for `q`, by id, read page by page of `per_page`.
pub async fn search(b: &str, q: &str, per_page: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut cursor = String::new();
    loop {
        let a = get(
            b,
            &format!(
                "/api/clubs?q={}&limit={per_page}&cursor={cursor}",
                q.replace('%', "%25").replace(' ', "%20")
            ),
            None,
        )
        .await;
        assert_eq!(a.status, 200, "{}", a.text);
        for c in a.json["clubs"].as_array().unwrap() {
            out.push(c["id"].as_str().unwrap().to_string());
        }
        match a.json["next"].as_str() {
            Some(n) => cursor = n.to_string(),
            None => return out,
        }
    }
}

fn names(v: &[(String, String)]) -> Vec<(&str, &str)> {
    v.iter().map(|(n, r)| (n.as_str(), r.as_str())).collect()
}

/// Making, finding and reading clubs; joining an open one and asking to join a closed one;
/// answers, leaving, roles, several clubs per player, the clubs on a profile, and a deleted
/// last leader's club led by its longest-standing admin.
pub async fn clubs_and_members(url: &str) {
    let s = server(url).start().await;
    let b = base(&s);
    let (asha, a) = account(&b, "asha").await;
    let (baraka, bk) = account(&b, "baraka").await;
    let (chausiku, ch) = account(&b, "chausiku").await;
    let (dogo, dg) = account(&b, "dogo").await;

    // Signed out: nothing is made.
    let r = create_club(
        &b,
        None,
        json!({"name": "X", "description": "", "open": true}),
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (401, Some("not_signed_in"))
    );

    let unguja = new_club(&b, &a, "Chama cha Bao Unguja", "Unguja", true).await;
    let wazee = new_club(&b, &a, "Wazee wa Bao", "Mkokotoni", false).await;
    // Bounds and a taken name (any case).
    let same = create_club(
        &b,
        Some(&bk),
        json!({"name": "chama CHA bao unguja", "open": true}),
    )
    .await;
    assert_eq!(
        (same.status, same.json["error"].as_str()),
        (409, Some("conflict")),
        "{}",
        same.text
    );
    for body in [
        json!({"name": "x".repeat(61), "open": true}),
        json!({"name": "  \u{200b} ", "open": true}),
        json!({"name": "Sawa", "description": "d".repeat(2001), "open": true}),
        json!({"name": "Sawa", "place": "p".repeat(61), "open": true}),
        json!({"name": "Sawa", "open": true, "extra": 1}),
    ] {
        let r = create_club(&b, Some(&bk), body).await;
        assert_eq!(
            (r.status, r.json["error"].as_str()),
            (400, Some("bad_request")),
            "{}",
            r.text
        );
    }
    // At the bounds it is made: 60 characters of name, 2,000 of description.
    let long = create_club(
        &b,
        Some(&bk),
        json!({"name": format!("Z{}", "ñ".repeat(59)), "description": "d".repeat(2000), "open": true}),
    )
    .await;
    assert_eq!(long.status, 201, "{}", long.text);
    let long = long.json["id"].as_str().unwrap().to_string();

    // Found by name or place, in any case; a page at a time, by name.
    assert_eq!(search(&b, "UNGUJA", 1).await, vec![unguja.clone()]);
    assert_eq!(search(&b, "mkokotoni", 1).await, vec![wazee.clone()]);
    assert_eq!(search(&b, "%", 1).await, Vec::<String>::new());
    assert_eq!(
        search(&b, "", 1).await,
        vec![unguja.clone(), wazee.clone(), long.clone()]
    );
    let listed = get(&b, "/api/clubs?q=wazee", None).await.json;
    assert_eq!(listed["clubs"][0]["name"], "Wazee wa Bao");
    assert_eq!(listed["clubs"][0]["place"], "Mkokotoni");
    assert_eq!(listed["clubs"][0]["members"], 1);
    assert_eq!(listed["clubs"][0]["leader"], asha.as_str());
    assert_eq!(listed["clubs"][0]["open"], false);
    let bad = get(&b, "/api/clubs?cursor=zz", None).await;
    assert_eq!(bad.status, 400);

    // A guest's view.
    let v = club(&b, &wazee, None).await;
    assert_eq!(v["name"], "Wazee wa Bao");
    assert_eq!(v["description"], "Tunacheza kila Jumamosi.");
    assert_eq!(v["leaders"], json!([asha]));
    assert_eq!(v["members"], 1);
    assert_eq!(
        v["you"],
        json!({"member": false, "role": null, "requested": false, "banned": false})
    );
    assert_eq!(club(&b, &wazee, Some(&a)).await["you"]["role"], "leader");

    // An open club: a member at once.
    let j = act(&b, &unguja, "join", json!({}), Some(&bk)).await;
    assert_eq!(
        (j.status, &j.json),
        (200, &json!({"member": true})),
        "{}",
        j.text
    );
    let v = club(&b, &unguja, Some(&bk)).await;
    assert_eq!(
        (v["members"].as_i64(), &v["you"]["role"]),
        (Some(2), &json!("member"))
    );
    // A closed one: a request the leader sees and answers.
    let j = act(&b, &wazee, "join", json!({}), Some(&ch)).await;
    assert_eq!(
        (j.status, &j.json),
        (202, &json!({"requested": true})),
        "{}",
        j.text
    );
    let v = club(&b, &wazee, Some(&ch)).await;
    assert_eq!(
        (&v["you"]["member"], &v["you"]["requested"]),
        (&json!(false), &json!(true))
    );
    let reqs = get(&b, &format!("/api/clubs/{wazee}/requests"), Some(&a)).await;
    assert_eq!(reqs.status, 200, "{}", reqs.text);
    assert_eq!(reqs.json["requests"][0]["username"], chausiku.as_str());
    let ok = act(
        &b,
        &wazee,
        &format!("requests/{chausiku}/accept"),
        json!({}),
        Some(&a),
    )
    .await;
    assert_eq!(
        (ok.status, &ok.json),
        (200, &json!({"member": true})),
        "{}",
        ok.text
    );
    let v = club(&b, &wazee, Some(&ch)).await;
    assert_eq!(
        (&v["you"]["role"], &v["you"]["requested"]),
        (&json!("member"), &json!(false))
    );
    // Declined is not banned: the player may ask again.
    assert_eq!(
        act(&b, &wazee, "join", json!({}), Some(&dg)).await.status,
        202
    );
    let no = act(
        &b,
        &wazee,
        &format!("requests/{dogo}/decline"),
        json!({}),
        Some(&a),
    )
    .await;
    assert_eq!(
        (no.status, &no.json),
        (200, &json!({"declined": true})),
        "{}",
        no.text
    );
    let v = club(&b, &wazee, Some(&dg)).await;
    assert_eq!(
        (&v["you"]["member"], &v["you"]["requested"]),
        (&json!(false), &json!(false))
    );
    let none = act(
        &b,
        &wazee,
        &format!("requests/{dogo}/accept"),
        json!({}),
        Some(&a),
    )
    .await;
    assert_eq!(
        (none.status, none.json["error"].as_str()),
        (409, Some("not_club_member"))
    );
    assert_eq!(
        act(&b, &wazee, "join", json!({}), Some(&dg)).await.status,
        202
    );

    // Roles: an admin answers requests too; the list is leaders, admins, members.
    let r = act(
        &b,
        &wazee,
        "role",
        json!({"username": chausiku, "role": "admin"}),
        Some(&a),
    )
    .await;
    assert_eq!(
        (r.status, &r.json),
        (200, &json!({"role": "admin"})),
        "{}",
        r.text
    );
    let ok = act(
        &b,
        &wazee,
        &format!("requests/{dogo}/accept"),
        json!({}),
        Some(&ch),
    )
    .await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    assert_eq!(
        names(&all_members(&b, &wazee, 1).await),
        vec![
            (asha.as_str(), "leader"),
            (chausiku.as_str(), "admin"),
            (dogo.as_str(), "member")
        ]
    );
    let bad = act(
        &b,
        &wazee,
        "role",
        json!({"username": dogo, "role": "king"}),
        Some(&a),
    )
    .await;
    assert_eq!(bad.status, 400);

    // A player in several clubs; the profile names them.
    assert_eq!(
        act(&b, &unguja, "join", json!({}), Some(&ch)).await.status,
        200
    );
    let p = get(&b, &format!("/api/users/{chausiku}"), None).await.json;
    assert_eq!(
        p["clubs"],
        json!([{"id": unguja, "name": "Chama cha Bao Unguja", "role": "member"},
               {"id": wazee, "name": "Wazee wa Bao", "role": "admin"}])
    );

    // Leaving; a leader leaves once another leads.
    let l = act(&b, &unguja, "leave", json!({}), Some(&bk)).await;
    assert_eq!(
        (l.status, &l.json),
        (200, &json!({"member": false})),
        "{}",
        l.text
    );
    assert_eq!(club(&b, &unguja, None).await["members"], 2);
    let again = act(&b, &unguja, "leave", json!({}), Some(&bk)).await;
    assert_eq!(
        (again.status, again.json["error"].as_str()),
        (409, Some("not_club_member"))
    );
    let r = act(
        &b,
        &wazee,
        "role",
        json!({"username": chausiku, "role": "leader"}),
        Some(&a),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        club(&b, &wazee, None).await["leaders"],
        json!([asha, chausiku])
    );
    assert_eq!(
        act(&b, &wazee, "leave", json!({}), Some(&a)).await.status,
        200
    );
    assert_eq!(club(&b, &wazee, None).await["leaders"], json!([chausiku]));

    // A deleted account that led a club alone: its longest-standing admin leads, else member.
    let r = act(&b, &unguja, "join", json!({}), Some(&dg)).await;
    assert_eq!(r.status, 200);
    let r = act(
        &b,
        &unguja,
        "role",
        json!({"username": dogo, "role": "admin"}),
        Some(&a),
    )
    .await;
    assert_eq!(r.status, 200);
    let gone = delete_json(
        &b,
        "/api/account",
        json!({"password": "rated-games-1"}),
        Some(&a),
    )
    .await;
    assert_eq!(gone.status, 204, "{}", gone.text);
    let v = club(&b, &unguja, None).await;
    assert_eq!((&v["leaders"], &v["members"]), (&json!([dogo]), &json!(2)));
    assert_eq!(
        names(&all_members(&b, &unguja, 50).await),
        vec![(dogo.as_str(), "leader"), (chausiku.as_str(), "member")]
    );
    let _ = baraka;
    s.stop().await;
}

/// A closed club of Asha's with Baraka (member) and Dogo (admin), Chausiku asking to join and
/// Eli outside it, on a server whose clock the test moves.
pub struct Hostile {
    pub s: Running,
    pub b: String,
    pub clock: Clock,
    pub id: String,
    pub asha: String,
    pub a: String,
    pub baraka: String,
    pub bk: String,
    pub chausiku: String,
    pub ch: String,
    pub dogo: String,
    pub dg: String,
    pub eli: String,
    pub el: String,
}

pub async fn hostile_club(url: &str) -> Hostile {
    let clock = manual_clock();
    let s = server(url).clock(&clock).start().await;
    let b = base(&s);
    let (asha, a) = account(&b, "asha").await;
    let (baraka, bk) = account(&b, "baraka").await;
    let (chausiku, ch) = account(&b, "chausiku").await;
    let (dogo, dg) = account(&b, "dogo").await;
    let (eli, el) = account(&b, "eli").await;
    let id = new_club(&b, &a, "Bao Kidongo Chekundu", "Darajani", false).await;
    for c in [&bk, &dg] {
        assert_eq!(act(&b, &id, "join", json!({}), Some(c)).await.status, 202);
    }
    for n in [&baraka, &dogo] {
        let ok = act(
            &b,
            &id,
            &format!("requests/{n}/accept"),
            json!({}),
            Some(&a),
        )
        .await;
        assert_eq!(ok.status, 200, "{}", ok.text);
    }
    let r = act(
        &b,
        &id,
        "role",
        json!({"username": dogo, "role": "admin"}),
        Some(&a),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(act(&b, &id, "join", json!({}), Some(&ch)).await.status, 202);
    Hostile {
        s,
        b,
        clock,
        id,
        asha,
        a,
        baraka,
        bk,
        chausiku,
        ch,
        dogo,
        dg,
        eli,
        el,
    }
}

/// A member who is neither leader nor admin cannot answer requests, see them, announce,
/// change roles or remove; an admin cannot remove a leader or change roles; outsiders and
/// guests neither.
pub async fn members_cannot_lead(url: &str) {
    let h = hostile_club(url).await;
    let Hostile {
        b,
        clock,
        id,
        asha,
        a,
        baraka,
        bk,
        chausiku,
        ch,
        dogo,
        dg,
        eli,
        el,
        ..
    } = &h;
    let (b, id) = (b.as_str(), id.as_str());
    let _ = (&clock, asha, a, baraka, bk, chausiku, ch, dogo, dg, eli, el);
    // A member who is neither leader nor admin.
    let r = act(
        b,
        id,
        &format!("requests/{chausiku}/accept"),
        json!({}),
        Some(bk),
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("not_club_leader")),
        "{}",
        r.text
    );
    let v = club(b, id, Some(ch)).await;
    assert_eq!(
        (&v["you"]["member"], &v["you"]["requested"]),
        (&json!(false), &json!(true))
    );
    let r = act(
        b,
        id,
        &format!("requests/{chausiku}/decline"),
        json!({}),
        Some(bk),
    )
    .await;
    assert_eq!(r.status, 403);
    assert_eq!(club(b, id, Some(ch)).await["you"]["requested"], true);
    let r = get(b, &format!("/api/clubs/{id}/requests"), Some(bk)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("not_club_leader"))
    );
    let r = act(
        b,
        id,
        "announce",
        json!({"text": "Karibuni wote"}),
        Some(bk),
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("not_club_leader")),
        "{}",
        r.text
    );
    assert_eq!(club(b, id, Some(a)).await["announcements"], json!([]));
    let r = act(
        b,
        id,
        "role",
        json!({"username": baraka, "role": "leader"}),
        Some(bk),
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("not_club_leader"))
    );
    let r = act(
        b,
        id,
        "remove",
        json!({"username": dogo, "ban": true}),
        Some(bk),
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("not_club_leader"))
    );
    assert_eq!(club(b, id, None).await["leaders"], json!([asha]));
    assert_eq!(club(b, id, Some(dg)).await["you"]["role"], "admin");
    // An admin answers requests but neither removes a leader nor changes roles.
    let r = act(
        b,
        id,
        "role",
        json!({"username": dogo, "role": "admin"}),
        Some(a),
    )
    .await;
    assert_eq!(r.status, 200);
    let r = act(b, id, "remove", json!({"username": asha}), Some(dg)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("not_club_leader"))
    );
    let r = act(
        b,
        id,
        "role",
        json!({"username": baraka, "role": "admin"}),
        Some(dg),
    )
    .await;
    assert_eq!(r.status, 403);
    assert_eq!(club(b, id, Some(a)).await["you"]["role"], "leader");
    // Outsiders and guests.
    let r = act(
        b,
        id,
        &format!("requests/{chausiku}/accept"),
        json!({}),
        Some(el),
    )
    .await;
    assert_eq!(r.status, 403);
    let r = act(b, id, "join", json!({}), None).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (401, Some("not_signed_in"))
    );
    for path in [
        "/api/clubs/zzzzzzzzzz",
        "/api/clubs/nope",
        "/api/clubs/zzzzzzzzzz/members",
    ] {
        let r = get(b, path, None).await;
        assert_eq!(
            (r.status, r.json["error"].as_str()),
            (404, Some("no_such_club")),
            "{path}"
        );
    }
    let r = act(b, "zzzzzzzzzz", "join", json!({}), Some(el)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (404, Some("no_such_club"))
    );

    h.s.stop().await;
}

/// A player removed with a ban cannot join or ask again, from a closed club or an open one;
/// one removed without a ban may.
pub async fn banned_cannot_join(url: &str) {
    let h = hostile_club(url).await;
    let Hostile {
        b,
        clock,
        id,
        asha,
        a,
        baraka,
        bk,
        chausiku,
        ch,
        dogo,
        dg,
        eli,
        el,
        ..
    } = &h;
    let (b, id) = (b.as_str(), id.as_str());
    let _ = (&clock, asha, a, baraka, bk, chausiku, ch, dogo, dg, eli, el);
    // Bans: a removed and banned player cannot ask again; one banned while asking neither.
    let r = act(
        b,
        id,
        "remove",
        json!({"username": chausiku, "ban": true}),
        Some(a),
    )
    .await;
    assert_eq!(
        (r.status, &r.json),
        (200, &json!({"removed": true, "banned": true})),
        "{}",
        r.text
    );
    let r = act(b, id, "join", json!({}), Some(ch)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("banned_from_club")),
        "{}",
        r.text
    );
    let v = club(b, id, Some(ch)).await;
    assert_eq!(
        v["you"],
        json!({"member": false, "role": null, "requested": false, "banned": true})
    );
    let reqs = get(b, &format!("/api/clubs/{id}/requests"), Some(a))
        .await
        .json;
    assert_eq!(reqs["requests"], json!([]));
    let r = act(
        b,
        id,
        "remove",
        json!({"username": baraka, "ban": true}),
        Some(a),
    )
    .await;
    assert_eq!(r.status, 200);
    let r = act(b, id, "join", json!({}), Some(bk)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("banned_from_club"))
    );
    assert_eq!(club(b, id, Some(bk)).await["you"]["member"], false);
    // Removed without a ban: may ask again.
    let open = new_club(b, a, "Bao la Wazi", "Stone Town", true).await;
    assert_eq!(act(b, &open, "join", json!({}), Some(el)).await.status, 200);
    let r = act(b, &open, "remove", json!({"username": eli}), Some(a)).await;
    assert_eq!(
        (r.status, &r.json),
        (200, &json!({"removed": true, "banned": false}))
    );
    assert_eq!(club(b, &open, Some(el)).await["you"]["member"], false);
    assert_eq!(act(b, &open, "join", json!({}), Some(el)).await.status, 200);
    // An open club refuses a banned player too.
    let r = act(
        b,
        &open,
        "remove",
        json!({"username": chausiku, "ban": true}),
        Some(a),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = act(b, &open, "join", json!({}), Some(ch)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("banned_from_club"))
    );
    assert_eq!(club(b, &open, None).await["members"], 2);
    let r = act(b, &open, "remove", json!({"username": asha}), Some(a)).await;
    assert_eq!(r.status, 400);

    h.s.stop().await;
}

/// The last leader can neither leave nor step down.
pub async fn a_club_keeps_a_leader(url: &str) {
    let h = hostile_club(url).await;
    let Hostile {
        b,
        clock,
        id,
        asha,
        a,
        baraka,
        bk,
        chausiku,
        ch,
        dogo,
        dg,
        eli,
        el,
        ..
    } = &h;
    let (b, id) = (b.as_str(), id.as_str());
    let _ = (&clock, asha, a, baraka, bk, chausiku, ch, dogo, dg, eli, el);
    // The last leader can neither leave nor step down.
    let r = act(b, id, "leave", json!({}), Some(a)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (409, Some("last_leader")),
        "{}",
        r.text
    );
    let r = act(
        b,
        id,
        "role",
        json!({"username": asha, "role": "member"}),
        Some(a),
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (409, Some("last_leader")),
        "{}",
        r.text
    );
    let v = club(b, id, Some(a)).await;
    assert_eq!(
        (&v["leaders"], &v["you"]["role"]),
        (&json!([asha]), &json!("leader"))
    );

    h.s.stop().await;
}

/// Announcements: a few a day, each bounded; members read them, others do not.
pub async fn announcements_are_limited(url: &str) {
    let h = hostile_club(url).await;
    let Hostile {
        b,
        clock,
        id,
        asha,
        a,
        baraka,
        bk,
        chausiku,
        ch,
        dogo,
        dg,
        eli,
        el,
        ..
    } = &h;
    let (b, id) = (b.as_str(), id.as_str());
    let _ = (&clock, asha, a, baraka, bk, chausiku, ch, dogo, dg, eli, el);
    // Announcements: a few a day, each bounded; members read them, others do not.
    let too_long = act(
        b,
        id,
        "announce",
        json!({"text": "a".repeat(1001)}),
        Some(a),
    )
    .await;
    assert_eq!(too_long.status, 400);
    let empty = act(b, id, "announce", json!({"text": " \n "}), Some(a)).await;
    assert_eq!(empty.status, 400);
    for i in 0..3 {
        let text = if i == 0 {
            "b".repeat(1000)
        } else {
            format!("Tangazo {i}")
        };
        let r = act(
            b,
            id,
            "announce",
            json!({"text": text}),
            Some(if i == 1 { dg.as_str() } else { a.as_str() }),
        )
        .await;
        assert_eq!(r.status, 201, "{}", r.text);
        clock.advance(Duration::from_secs(60));
    }
    let r = act(b, id, "announce", json!({"text": "Moja zaidi"}), Some(a)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (429, Some("rate_limited")),
        "{}",
        r.text
    );
    let v = club(b, id, Some(dg)).await;
    let texts: Vec<&str> = v["announcements"]
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["text"].as_str().unwrap())
        .collect();
    assert_eq!(texts.len(), 3, "{v}");
    assert_eq!(&texts[..2], &["Tangazo 2", "Tangazo 1"]);
    assert_eq!(v["announcements"][1]["by"], dogo.as_str());
    assert_eq!(club(b, id, Some(el)).await["announcements"], json!([]));
    // A day after the first, one more.
    clock.advance(Duration::from_secs(24 * 3600 - 170));
    let r = act(b, id, "announce", json!({"text": "Moja zaidi"}), Some(a)).await;
    assert_eq!(r.status, 201, "{}", r.text);

    h.s.stop().await;
}

/// A club-only tournament: made by its leaders and admins, joined by its members only.
pub async fn club_only_tournaments(url: &str) {
    let h = hostile_club(url).await;
    let Hostile {
        b,
        clock,
        id,
        asha,
        a,
        baraka,
        bk,
        chausiku,
        ch,
        dogo,
        dg,
        eli,
        el,
        ..
    } = &h;
    let (b, id) = (b.as_str(), id.as_str());
    let _ = (&clock, asha, a, baraka, bk, chausiku, ch, dogo, dg, eli, el);
    let open = new_club(b, a, "Bao la Wazi", "Stone Town", true).await;
    assert_eq!(act(b, &open, "join", json!({}), Some(el)).await.status, 200);
    let r = act(
        b,
        id,
        "remove",
        json!({"username": baraka, "ban": true}),
        Some(a),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    // A club-only tournament: made by its leaders and admins, joined by its members only.
    let t = |club: &str| {
        json!({"name": "Kombe la Chama", "variant": "kete", "format": {"kind": "swiss", "rounds": 3},
               "clock": {"initial_ms": 600000, "increment_ms": 0}, "rated": false,
               "starts_at": null, "max_players": 16, "private": false, "club": club})
    };
    let r = post(b, "/api/tournaments", t("zzzzzzzzzz"), Some(a)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (404, Some("no_such_club")),
        "{}",
        r.text
    );
    let r = post(b, "/api/tournaments", t(open.as_str()), Some(el)).await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("not_club_leader")),
        "{}",
        r.text
    );
    let r = post(b, "/api/tournaments", t(id), Some(dg)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let tid = r.json["id"].as_str().unwrap().to_string();
    let detail = get(b, &format!("/api/tournaments/{tid}"), None).await.json;
    assert_eq!(detail["club"], id);
    let r = post(
        b,
        &format!("/api/tournaments/{tid}/join"),
        json!({}),
        Some(el),
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (403, Some("club_members_only")),
        "{}",
        r.text
    );
    let r = post(
        b,
        &format!("/api/tournaments/{tid}/join"),
        json!({}),
        Some(bk),
    )
    .await;
    assert_eq!(r.status, 403, "a banned former member: {}", r.text);
    for c in [&a, &dg] {
        let r = post(
            b,
            &format!("/api/tournaments/{tid}/join"),
            json!({}),
            Some(c),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let detail = get(b, &format!("/api/tournaments/{tid}"), None).await.json;
    let mut players: Vec<&str> = detail["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["username"].as_str().unwrap())
        .collect();
    players.sort();
    let mut want = vec![asha.as_str(), dogo.as_str()];
    want.sort();
    assert_eq!(players, want);
    let page = club(b, id, None).await;
    assert_eq!(page["tournaments"][0]["id"], tid.as_str());
    assert_eq!(page["tournaments"][0]["url"], format!("/t/{tid}"));
    h.s.stop().await;
}

/// An announcement is one alert to the members (but its author) who allow Web Push, and its
/// notification names the club in the subscription's language.
pub async fn announcement_alerts_the_members(url: &str) {
    let s = server(url).start().await;
    let b = base(&s);
    let (asha, a) = account(&b, "asha").await;
    let (baraka, bk) = account(&b, "baraka").await;
    let (_chausiku, ch) = account(&b, "chausiku").await;
    let (dogo, _dg) = account(&b, "dogo").await;
    let id = new_club(&b, &a, "Chama cha Bao Pemba", "Pemba", true).await;
    for c in [&bk, &ch] {
        assert_eq!(act(&b, &id, "join", json!({}), Some(c)).await.status, 200);
    }
    let bounds = PushBounds {
        per_account: 10,
        per_seat: 10,
        seats_per_subscription: 200,
    };
    // Baraka, Dogo (not a member) and Asha (the author) allow notifications; Chausiku does
    // not.
    for (n, name) in [(1, &baraka), (2, &dogo), (3, &asha)] {
        let target = PushTarget {
            endpoint: format!("https://fcm.googleapis.com/fcm/send/club-test-{n}"),
            p256dh: "BPlaceholderKeyNotUsedByThisTest".into(),
            auth: "placeholder".into(),
            lang: "sw".into(),
        };
        let acct = account_id(&s, name).await;
        s.app
            .store
            .push_subscribe(
                &target,
                Some(&acct),
                &[],
                bounds,
                bao_server::util::now_ms(),
            )
            .await
            .unwrap();
    }
    let mut alerts = s.app.games.alerts.subscribe();
    let r = act(
        &b,
        &id,
        "announce",
        json!({"text": "Mashindano Jumamosi saa nne asubuhi."}),
        Some(&a),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let alert = tokio::time::timeout(EVENTUALLY, async {
        loop {
            let a = alerts.recv().await.unwrap();
            if matches!(a.kind, AlertKind::ClubAnnouncement { .. }) {
                return a;
            }
        }
    })
    .await
    .expect("the announcement's alert");
    assert_eq!(
        alert.to,
        Recipient::Accounts(vec![account_id(&s, &baraka).await])
    );
    let p = s
        .app
        .push
        .payload(&alert.kind, bao_server::web::i18n::Lang::Sw);
    assert_eq!(p["title"], "Chama cha Bao Pemba: tangazo");
    assert_eq!(p["body"], "Mashindano Jumamosi saa nne asubuhi.");
    assert_eq!(p["url"], format!("/club/{id}"));
    s.stop().await;
}

/// Two leaders stepping down at once, each on another instance of one database, leave the
/// club one leader: each change takes the club's row first, so the second reads what the
/// first wrote. Raced over and over, by leaving and by giving up the role.
pub async fn two_leaders_step_down_at_once(url: &str) {
    let (s1, s2) = server(url).start_two().await;
    let (b1, b2) = (base(&s1), base(&s2));
    let (x, xc) = account(&b1, "wawili_x").await;
    let (y, yc) = account(&b1, "wawili_y").await;
    for round in 0..12 {
        let name = format!("Wawili {round} {}", bao_server::util::random_code(6));
        let id = new_club(&b1, &xc, &name, "", true).await;
        assert_eq!(
            act(&b2, &id, "join", json!({}), Some(&yc)).await.status,
            200
        );
        let r = act(
            &b1,
            &id,
            "role",
            json!({"username": y, "role": "leader"}),
            Some(&xc),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
        let (r1, r2) = if round % 2 == 0 {
            tokio::join!(
                act(&b1, &id, "leave", json!({}), Some(&xc)),
                act(&b2, &id, "leave", json!({}), Some(&yc)),
            )
        } else {
            let me = |n: &str| json!({"username": n, "role": "member"});
            tokio::join!(
                act(&b1, &id, "role", me(&x), Some(&xc)),
                act(&b2, &id, "role", me(&y), Some(&yc)),
            )
        };
        let mut statuses = [r1.status, r2.status];
        statuses.sort();
        assert_eq!(
            statuses,
            [200, 409],
            "round {round}: {} / {}",
            r1.text,
            r2.text
        );
        let refused = if r1.status == 409 { &r1 } else { &r2 };
        assert_eq!(refused.json["error"], "last_leader", "{}", refused.text);
        let v = club(&b2, &id, None).await;
        assert_eq!(
            v["leaders"].as_array().unwrap().len(),
            1,
            "round {round}: {v}"
        );
    }
    s1.stop().await;
    s2.stop().await;
}

/// Only a leader lifts a ban: an admin's and a member's attempts leave the player banned
/// (they still cannot ask); after the leader's, the player asks again and is accepted.
pub async fn leaders_lift_bans(url: &str) {
    let h = hostile_club(url).await;
    let (b, id) = (h.b.as_str(), h.id.as_str());
    let r = act(
        b,
        id,
        "remove",
        json!({"username": h.chausiku, "ban": true}),
        Some(&h.a),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let asks = || act(b, id, "join", json!({}), Some(&h.ch));
    assert_eq!(asks().await.status, 403);
    for (who, cookie) in [
        ("the admin", &h.dg),
        ("a member", &h.bk),
        ("the banned", &h.ch),
    ] {
        let r = act(
            b,
            id,
            "unban",
            json!({"username": h.chausiku}),
            Some(cookie),
        )
        .await;
        assert_eq!(r.status, 403, "{who}: {}", r.text);
        assert_eq!(r.json["error"], "not_club_leader", "{who}");
        let again = asks().await;
        assert_eq!(
            again.status, 403,
            "{who}'s unban changed nothing: {}",
            again.text
        );
        assert_eq!(again.json["error"], "banned_from_club");
    }
    let guest = act(b, id, "unban", json!({"username": h.chausiku}), None).await;
    assert_eq!(guest.status, 401, "{}", guest.text);
    let r = act(b, id, "unban", json!({"username": h.eli}), Some(&h.a)).await;
    assert_eq!(r.status, 409, "nobody banned: {}", r.text);
    let r = act(b, id, "unban", json!({"username": "hakuna"}), Some(&h.a)).await;
    assert_eq!(r.status, 404, "{}", r.text);
    let r = act(b, id, "unban", json!({"username": h.chausiku}), Some(&h.a)).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(r.json["banned"], false);
    // Not a member again by the unban: they ask, and are accepted.
    assert!(!all_members(b, id, 50)
        .await
        .iter()
        .any(|m| m.0 == h.chausiku));
    assert_eq!(asks().await.status, 202);
    let ok = act(
        b,
        id,
        &format!("requests/{}/accept", h.chausiku),
        json!({}),
        Some(&h.a),
    )
    .await;
    assert_eq!(ok.status, 200, "{}", ok.text);
    assert!(all_members(b, id, 50)
        .await
        .iter()
        .any(|m| m.0 == h.chausiku));
    h.s.stop().await;
}

/// Dissolving a club (docs/api.md, "Clubs"): its leaders alone, with its name typed again;
/// refused while a match of it was accepted; what had not started is called off (a match
/// proposed declined, a club tournament cancelled, a club arena removed), the members go,
/// its page says it was dissolved, it is not found nor joined any more, and its name is free.
pub async fn dissolving_a_club(url: &str) {
    let h = hostile_club(url).await;
    let (b, id) = (h.b.as_str(), h.id.as_str());
    let other = new_club(b, &h.el, "Chama cha Pemba", "Pemba", true).await;
    let busy = new_club(b, &h.a, "Chama cha Kazi", "Unguja", true).await;
    let at = h.clock.now_ms() + 3_600_000;
    let proposal = |home: &str| {
        json!({"home": home, "away": other, "boards": 2, "variant": "kete",
               "clock": {"initial_ms": 600000, "increment_ms": 0}, "match": "single_game",
               "rated": false, "starts_at": at})
    };
    let r = post(b, "/api/team-matches", proposal(id), Some(&h.a)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let declined = r.json["id"].as_str().unwrap().to_string();
    let r = post(b, "/api/team-matches", proposal(&busy), Some(&h.a)).await;
    assert_eq!(r.status, 201, "{}", r.text);
    let accepted = r.json["id"].as_str().unwrap().to_string();
    let r = post(
        b,
        &format!("/api/team-matches/{accepted}/accept"),
        json!({}),
        Some(&h.el),
    )
    .await;
    assert_eq!(r.status, 200, "{}", r.text);
    let r = post(
        b,
        "/api/tournaments",
        json!({"name": "Kombe la Chama", "variant": "kete", "format": {"kind": "swiss", "rounds": 3},
               "clock": {"initial_ms": 600000, "increment_ms": 0}, "rated": false,
               "starts_at": null, "max_players": 16, "private": false, "club": id}),
        Some(&h.a),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let tournament = r.json["id"].as_str().unwrap().to_string();
    let r = post(
        b,
        "/api/arenas",
        json!({"name": "Uwanja wa chama", "variant": "kete",
               "clock": {"initial_ms": 180000, "increment_ms": 2000}, "rated": false,
               "starts_at": at, "minutes": 10, "berserk": false, "club": id}),
        Some(&h.a),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let arena = r.json["id"].as_str().unwrap().to_string();
    assert_eq!(
        post(
            b,
            &format!("/api/arenas/{arena}/join"),
            json!({}),
            Some(&h.bk)
        )
        .await
        .status,
        200
    );
    // A team tournament not started, the club entered by its admin.
    let r = post(
        b,
        "/api/tournaments",
        json!({"name": "Kombe la Vilabu", "variant": "kete", "format": {"kind": "round_robin"},
               "clock": {"initial_ms": 600000, "increment_ms": 0}, "max_players": 8,
               "teams": {"boards": 2}}),
        Some(&h.el),
    )
    .await;
    assert_eq!(r.status, 201, "{}", r.text);
    let cup = r.json["id"].as_str().unwrap().to_string();
    for (club_id, cookie) in [(id, &h.dg), (other.as_str(), &h.el)] {
        let r = post(
            b,
            &format!("/api/tournaments/{cup}/join"),
            json!({ "club": club_id }),
            Some(cookie),
        )
        .await;
        assert_eq!(r.status, 200, "{}", r.text);
    }
    let entrants = |t: &Value| -> Vec<String> {
        t["players"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["club"].as_str().unwrap().to_string())
            .collect()
    };
    let t = get(b, &format!("/api/tournaments/{cup}"), None).await.json;
    assert_eq!(entrants(&t).len(), 2, "{t}");
    let members = all_members(b, id, 50).await;
    let name = "Bao Kidongo Chekundu";
    assert!(search(b, "kidongo", 10).await.contains(&id.to_string()));
    assert_eq!(club(b, id, None).await["name"], name);
    let dissolve = |cookie: Option<&str>, name: &str| {
        let (body, cookie) = (json!({ "name": name }), cookie.map(str::to_string));
        async move { act(b, id, "dissolve", body, cookie.as_deref()).await }
    };
    // Hostile: an admin, a member, an outsider, a guest; the leader with another name.
    for (who, cookie, status, error) in [
        ("the admin", Some(h.dg.as_str()), 403, "not_club_leader"),
        ("a member", Some(h.bk.as_str()), 403, "not_club_leader"),
        ("an outsider", Some(h.el.as_str()), 403, "not_club_leader"),
        ("a guest", None, 401, "not_signed_in"),
        (
            "the leader, another name",
            Some(h.a.as_str()),
            400,
            "bad_request",
        ),
    ] {
        let typed = if status == 400 {
            "Chama cha Pemba"
        } else {
            name
        };
        let r = dissolve(cookie, typed).await;
        assert_eq!(
            (r.status, r.json["error"].as_str()),
            (status, Some(error)),
            "{who}: {}",
            r.text
        );
        assert_eq!(
            all_members(b, id, 50).await,
            members,
            "{who} changed nothing"
        );
        assert!(club(b, id, None).await["dissolved"].is_null(), "{who}");
    }
    // A club whose match was accepted is not dissolved until it is played.
    let r = act(
        b,
        &busy,
        "dissolve",
        json!({"name": "chama cha kazi"}),
        Some(&h.a),
    )
    .await;
    assert_eq!(
        (r.status, r.json["error"].as_str()),
        (409, Some("club_busy")),
        "{}",
        r.text
    );
    assert!(
        r.json["message"].as_str().unwrap().contains("team match"),
        "{}",
        r.text
    );
    assert!(club(b, &busy, None).await["dissolved"].is_null());
    assert_eq!(all_members(b, &busy, 50).await.len(), 1);
    // The leader, the name in another case.
    let r = dissolve(Some(&h.a), &name.to_uppercase()).await;
    assert_eq!(r.status, 200, "{}", r.text);
    assert_eq!(
        (
            r.json["dissolved"].as_bool(),
            r.json["matches_declined"].as_u64(),
            r.json["tournaments_cancelled"].as_u64(),
            r.json["arenas_removed"].as_u64()
        ),
        (Some(true), Some(1), Some(1), Some(1)),
        "{}",
        r.text
    );
    let page = club(b, id, Some(&h.a)).await;
    assert_eq!(page["dissolved"], h.clock.now_ms());
    assert_eq!(page["name"], name, "its name stays on its page");
    assert_eq!(page["members"], 0);
    assert_eq!(page["leaders"], json!([]));
    assert_eq!(page["you"]["member"], false);
    assert!(all_members(b, id, 50).await.is_empty());
    assert!(!search(b, "kidongo", 10).await.contains(&id.to_string()));
    let m = get(b, &format!("/api/team-matches/{declined}"), None).await;
    assert_eq!(m.json["status"], "declined", "{}", m.text);
    let m = get(b, &format!("/api/team-matches/{accepted}"), None).await;
    assert_eq!(
        m.json["status"], "accepted",
        "another club's match: {}",
        m.text
    );
    let t = get(b, &format!("/api/tournaments/{tournament}"), None).await;
    assert_eq!(t.json["status"], "cancelled", "{}", t.text);
    assert_eq!(
        get(b, &format!("/api/arenas/{arena}"), None).await.status,
        404
    );
    // Nobody joins it, it is not dissolved twice, and its name can be taken again.
    for cookie in [&h.bk, &h.el] {
        let r = act(b, id, "join", json!({}), Some(cookie)).await;
        assert_eq!(
            (r.status, r.json["error"].as_str()),
            (404, Some("no_such_club")),
            "{}",
            r.text
        );
    }
    assert_eq!(dissolve(Some(&h.a), name).await.status, 404);
    let again = new_club(b, &h.bk, name, "Stone Town", true).await;
    assert_ne!(again, id);
    h.s.stop().await;
}

//! The event bus (docs/architecture.md, "The event bus") across two instances on one
//! PostgreSQL (tests/bus_postgres.rs): each kind of event reaches the other instance, and
//! a listener connection killed mid-stream misses nothing.

use super::*;
use bao_server::domain::events::Event;
use std::collections::HashSet;
use std::time::Instant;

/// Kills the listener connection of instance `instance` (by its application_name); answers
/// how many connections were ended.
pub async fn kill_listener(url: &str, instance: &str) -> i64 {
    use sqlx::Row;
    sqlx::any::install_default_drivers();
    let pool = sqlx::AnyPool::connect(url).await.unwrap();
    let n = sqlx::query(
        "SELECT COUNT(*) AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity
         WHERE application_name = $1) x",
    )
    .bind(format!(
        "{}{instance}",
        bao_server::store::bus::LISTENER_NAME
    ))
    .fetch_one(&pool)
    .await
    .unwrap()
    .try_get::<i64, _>("n")
    .unwrap();
    pool.close().await;
    n
}

/// Instance A publishes 300 events while instance B's listener connection is killed three
/// times: B gets every one of them, once, in order.
pub async fn killed_listener_misses_nothing(url: &str) {
    let a = start(url).await;
    let b = start(url).await;
    let mut rx = b.app.store.subscribe();
    let tag = bao_server::util::random_code(8);
    let n = 300;
    let store = a.app.store.clone();
    let t = tag.clone();
    let publisher = tokio::spawn(async move {
        for i in 0..n {
            store
                .publish(vec![Event::Tournament {
                    id: format!("{t}{i:04}"),
                }])
                .await
                .unwrap();
            tokio::time::sleep(Duration::from_millis(3)).await;
        }
    });
    let binst = b.app.store.instance().to_string();
    let killer = {
        let url = url.to_string();
        tokio::spawn(async move {
            let mut killed = 0;
            for _ in 0..3 {
                tokio::time::sleep(Duration::from_millis(250)).await;
                killed += kill_listener(&url, &binst).await;
            }
            killed
        })
    };
    let mut got = Vec::new();
    let mut seen = HashSet::new();
    let t0 = Instant::now();
    while got.len() < n && t0.elapsed() < Duration::from_secs(30) {
        let d = match tokio::time::timeout(Duration::from_secs(30), rx.recv()).await {
            Ok(Ok(d)) => d,
            Ok(Err(e)) => panic!("{e}"),
            Err(_) => break,
        };
        if let Event::Tournament { id } = &d.event {
            if let Some(i) = id.strip_prefix(&tag) {
                assert!(seen.insert(i.to_string()), "event {i} twice");
                got.push(i.parse::<usize>().unwrap());
            }
        }
    }
    publisher.await.unwrap();
    let killed = killer.await.unwrap();
    assert!(killed >= 3, "the listener was killed {killed} times");
    let replayed = b.app.store.events_replayed();
    println!("{replayed} events read back from the table after the listener was killed");
    assert!(
        replayed > 0,
        "some events were published while the listener was down"
    );
    assert_eq!(
        got,
        (0..n).collect::<Vec<_>>(),
        "every event, once, in order"
    );
    a.stop().await;
    b.stop().await;
}

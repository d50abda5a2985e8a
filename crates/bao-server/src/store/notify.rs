//! Changes made by other instances on one PostgreSQL (LISTEN/NOTIFY on [`super::CHANNEL`]):
//! every commit of a change sends `NOTIFY` in its transaction (delivered only if it commits),
//! and each instance listens for the others' (docs/deploy.md).

use super::{Store, StoreError, CHANNEL};

/// The notifications of changed games from other instances.
pub struct Notifications {
    listener: sqlx::postgres::PgListener,
    instance: String,
}

impl Store {
    /// Listens for changes notified by instances other than `instance`.
    pub async fn listen(&self, instance: &str) -> Result<Notifications, StoreError> {
        let mut listener = sqlx::postgres::PgListener::connect(&self.url).await?;
        listener.listen(CHANNEL).await?;
        Ok(Notifications {
            listener,
            instance: instance.to_string(),
        })
    }
}

impl Notifications {
    /// The id of the next game another instance changed. A lost connection is logged and
    /// retried (PgListener reconnects by itself on the next receive).
    pub async fn next(&mut self) -> String {
        loop {
            match self.listener.recv().await {
                Ok(n) => {
                    let Some((instance, id)) = n.payload().split_once(' ') else {
                        continue;
                    };
                    if instance != self.instance {
                        return id.to_string();
                    }
                }
                Err(e) => {
                    tracing::warn!("database notifications: {e}");
                    tokio::time::sleep(std::time::Duration::from_millis(500)).await;
                }
            }
        }
    }
}

//! The next deadline of each of many things (a tournament's round, an arena's start or end),
//! for a task that sleeps until the first one (docs/architecture.md, "The event bus": timers
//! are for deadlines). The rows come from the store; this keeps which deadline is ahead and
//! which was acted on, so that one gone by is not set again: on a clock that stands still (a
//! test's) it would fire for ever.

use std::collections::HashMap;

/// Each thing's deadline ahead (ms since the epoch), and the last one acted on per thing.
///
/// ```
/// use bao_server::util::deadlines::Deadlines;
///
/// let mut d = Deadlines::keeping_past();
/// d.set(None, vec![("a".into(), 100), ("b".into(), 50)], 0);
/// assert_eq!(d.next(), Some(50));
/// assert_eq!(d.due(60), vec!["b".to_string()]);
/// // Read again, b's deadline acted on is not set again; a later one is.
/// d.set(Some("b"), vec![("b".into(), 50)], 60);
/// assert_eq!(d.next(), Some(100));
/// d.set(Some("b"), vec![("b".into(), 80)], 60);
/// assert_eq!(d.next(), Some(80));
/// ```
#[derive(Debug, Default)]
pub struct Deadlines {
    ahead: HashMap<String, i64>,
    acted: HashMap<String, i64>,
    /// `Some(ms)`: a deadline read more than this long after it passed is not set (the
    /// safety sweep acts on it); `None`: it is set and fires at once.
    past_slack: Option<i64>,
}

impl Deadlines {
    /// Deadlines that fire even when read after they passed.
    pub fn keeping_past() -> Self {
        Self::default()
    }

    /// Deadlines read more than `slack_ms` after they passed are left to the safety sweep
    /// (a little slack: one may pass while it is being read).
    pub fn dropping_past(slack_ms: i64) -> Self {
        Self {
            past_slack: Some(slack_ms),
            ..Self::default()
        }
    }

    /// Takes the deadlines just read at `now`: those of thing `id` (`rows` holds its row, or
    /// none when it has no deadline any more), or of every thing (`id` is `None`).
    pub fn set(&mut self, id: Option<&str>, rows: Vec<(String, i64)>, now: i64) {
        match id {
            Some(id) => {
                self.ahead.remove(id);
                if !rows.iter().any(|(t, _)| t == id) {
                    self.acted.remove(id);
                }
            }
            None => {
                self.ahead.clear();
                self.acted.retain(|t, _| rows.iter().any(|(r, _)| r == t));
            }
        }
        for (id, at) in rows {
            let done = self.acted.get(&id).is_some_and(|a| at <= *a);
            let in_time = self.past_slack.is_none_or(|slack| at >= now - slack);
            if in_time && !done {
                self.ahead.insert(id, at);
            }
        }
    }

    /// When the first deadline comes (ms since the epoch, on the clock the rows were read by).
    pub fn next(&self) -> Option<i64> {
        self.ahead.values().min().copied()
    }

    /// Takes out the things whose deadline has come by `now`, marking each acted on.
    pub fn due(&mut self, now: i64) -> Vec<String> {
        let due: Vec<(String, i64)> = self
            .ahead
            .iter()
            .filter(|(_, at)| **at <= now)
            .map(|(id, at)| (id.clone(), *at))
            .collect();
        for (id, at) in &due {
            self.ahead.remove(id);
            self.acted.insert(id.clone(), *at);
        }
        due.into_iter().map(|(id, _)| id).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn past_deadlines_by_policy() {
        let rows = || vec![("old".to_string(), 10), ("new".to_string(), 990)];
        let mut keep = Deadlines::keeping_past();
        keep.set(None, rows(), 1000);
        assert_eq!(keep.next(), Some(10));
        let mut drop = Deadlines::dropping_past(5);
        drop.set(None, rows(), 1000);
        assert_eq!(drop.next(), None, "990 passed more than 5 ms ago");
        drop.set(None, rows(), 994);
        assert_eq!(drop.next(), Some(990));
    }

    #[test]
    fn a_thing_without_deadline_forgets_what_was_acted_on() {
        let mut d = Deadlines::keeping_past();
        d.set(None, vec![("t".to_string(), 5)], 0);
        assert_eq!(d.due(5), vec!["t".to_string()]);
        d.set(Some("t"), vec![("t".to_string(), 5)], 5);
        assert_eq!(d.next(), None, "acted on: not set again");
        d.set(Some("t"), Vec::new(), 5);
        d.set(Some("t"), vec![("t".to_string(), 5)], 5);
        assert_eq!(d.next(), Some(5), "its deadline gone and back: set again");
        d.set(None, Vec::new(), 5);
        assert_eq!(d.next(), None);
    }
}

//! How a game ended, typed (docs/api.md, "Endings"): the reason and the winner, which pages
//! put in words from their catalogs, and the English sentence API clients have always read
//! (`result_text`), made from the same value.

use bao_rules::{DrawReason, Outcome, RecordResult, Side, Termination, WinReason};
use serde::{Serialize, Serializer};

/// The text of a tournament game forfeited by a player who never moved (the first game only).
pub const FORFEIT_TEXT: &str = "forfeit: no first move within the tournament's time";

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// BRD-7.2: the loser's front row is empty.
    FrontRow,
    /// BRD-7.2: the loser has no legal move.
    NoMoves,
    /// BRD-7.4: a never-ending move, lost by its mover or drawn (`never_ending`).
    NeverEnding,
    /// BRD-7.5: the same position a third time (drawn).
    Repetition,
    /// BRD-7.6: the ply limit (`max_plies`, drawn).
    MaxPlies,
    /// NOT-6.2 `resignation`.
    Resignation,
    /// NOT-6.2 `time`: the loser's clock ran out.
    Time,
    /// NOT-6.2 `abandoned`, won: the loser did not move for too long.
    Abandoned,
    /// A tournament game whose loser never made a first move (stored as `abandoned`).
    Forfeit,
    /// NOT-6.2 `abandoned` with Result `-`: nobody moved, the match was closed.
    Closed,
    /// NOT-6.2 `agreement` (uploaded records only).
    Agreement,
    /// NOT-6.2 `adjudication` (uploaded records only).
    Adjudication,
}

/// How a game ended: `{"reason": "time", "winner": "S"}`; `winner` is `null` for a draw and
/// for a closed match.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Ending {
    /// Why.
    pub reason: EndReason,
    /// The winner, `S` or `N`.
    #[serde(serialize_with = "winner_letter")]
    pub winner: Option<Side>,
}

fn winner_letter<S: Serializer>(w: &Option<Side>, s: S) -> Result<S::Ok, S::Error> {
    match w {
        Some(w) => s.serialize_str(super::model::side_json(*w)),
        None => s.serialize_none(),
    }
}

impl Ending {
    /// The ending the rules gave (BRD-7.2 to BRD-7.6); `None` while the game goes on.
    pub fn of_outcome(o: Outcome) -> Option<Ending> {
        let (reason, winner) = match o {
            Outcome::Ongoing => return None,
            Outcome::Win(w, WinReason::FrontRow) => (EndReason::FrontRow, Some(w)),
            Outcome::Win(w, WinReason::NoMoves) => (EndReason::NoMoves, Some(w)),
            Outcome::Win(w, WinReason::NeverEnding) => (EndReason::NeverEnding, Some(w)),
            Outcome::Draw(DrawReason::NeverEnding) => (EndReason::NeverEnding, None),
            Outcome::Draw(DrawReason::MaxPlies) => (EndReason::MaxPlies, None),
            Outcome::Draw(DrawReason::Repetition) => (EndReason::Repetition, None),
        };
        Some(Ending { reason, winner })
    }

    /// The ending of a game ended with `result` by `termination` other than by the rules
    /// (NOT-6.2); `None` for `rules` and for an unfinished game that was not closed.
    pub fn forced(result: RecordResult, termination: Termination) -> Option<Ending> {
        let winner = match result {
            RecordResult::Win(w) => Some(w),
            _ => None,
        };
        let reason = match (result, termination) {
            (_, Termination::Rules) => return None,
            (RecordResult::Unfinished, Termination::Abandoned) => EndReason::Closed,
            (RecordResult::Unfinished, _) => return None,
            (_, Termination::Resignation) => EndReason::Resignation,
            (_, Termination::Time) => EndReason::Time,
            (_, Termination::Abandoned) => EndReason::Abandoned,
            (_, Termination::Agreement) => EndReason::Agreement,
            (_, Termination::Adjudication) => EndReason::Adjudication,
        };
        Some(Ending { reason, winner })
    }

    /// A tournament game forfeited by `winner`'s opponent.
    pub fn forfeit(winner: Side) -> Ending {
        Ending {
            reason: EndReason::Forfeit,
            winner: Some(winner),
        }
    }

    /// The Result tag it gives (NOT-6.2).
    pub fn result(self) -> RecordResult {
        match (self.winner, self.reason) {
            (Some(w), _) => RecordResult::Win(w),
            (None, EndReason::Closed) => RecordResult::Unfinished,
            (None, _) => RecordResult::Draw,
        }
    }

    /// The Termination tag it is stored with (NOT-6.2); `None` for an ending by the rules.
    pub fn termination(self) -> Option<Termination> {
        Some(match self.reason {
            EndReason::FrontRow
            | EndReason::NoMoves
            | EndReason::NeverEnding
            | EndReason::Repetition
            | EndReason::MaxPlies => return None,
            EndReason::Resignation => Termination::Resignation,
            EndReason::Time => Termination::Time,
            EndReason::Abandoned | EndReason::Forfeit | EndReason::Closed => Termination::Abandoned,
            EndReason::Agreement => Termination::Agreement,
            EndReason::Adjudication => Termination::Adjudication,
        })
    }

    /// The rules' outcome it stands for, for an ending by the rules.
    fn outcome(self) -> Option<Outcome> {
        Some(match (self.reason, self.winner) {
            (EndReason::FrontRow, Some(w)) => Outcome::Win(w, WinReason::FrontRow),
            (EndReason::NoMoves, Some(w)) => Outcome::Win(w, WinReason::NoMoves),
            (EndReason::NeverEnding, Some(w)) => Outcome::Win(w, WinReason::NeverEnding),
            (EndReason::NeverEnding, None) => Outcome::Draw(DrawReason::NeverEnding),
            (EndReason::MaxPlies, None) => Outcome::Draw(DrawReason::MaxPlies),
            (EndReason::Repetition, None) => Outcome::Draw(DrawReason::Repetition),
            _ => return None,
        })
    }

    /// The English sentence of the API (`result_text`): for API clients and records, never
    /// read back by a page.
    pub fn text(self) -> String {
        if let Some(o) = self.outcome() {
            return o.describe();
        }
        let name = |s: Side| s.name();
        match (self.reason, self.winner) {
            (EndReason::Resignation, Some(w)) => {
                format!("{} resigned: {} has won", name(w.other()), name(w))
            }
            (EndReason::Time, Some(w)) => {
                format!("{} ran out of time: {} has won", name(w.other()), name(w))
            }
            (EndReason::Abandoned, Some(w)) => format!(
                "{} did not move for too long: {} has won (abandoned)",
                name(w.other()),
                name(w)
            ),
            (EndReason::Forfeit, _) => FORFEIT_TEXT.to_string(),
            (EndReason::Closed, _) => "closed: nobody moved for too long (abandoned)".to_string(),
            (r, Some(w)) => format!("{} has won ({})", name(w), termination_word(r)),
            (r, None) => format!("drawn ({})", termination_word(r)),
        }
    }

    /// The ending of a stored game: its Result, its Termination and the sentence stored with
    /// it, which tells the endings a Result and Termination share apart (a rules win by an
    /// empty front row or by no move; a forfeit or an abandoned game). The sentence was
    /// written by [`Ending::text`]; one it does not match gives the first candidate.
    pub fn read(
        result: RecordResult,
        termination: Option<Termination>,
        text: Option<&str>,
    ) -> Option<Ending> {
        let candidates: Vec<Ending> = match termination {
            Some(t) if t != Termination::Rules => {
                let forced = Ending::forced(result, t)?;
                match (forced.reason, forced.winner) {
                    (EndReason::Abandoned, Some(w)) => vec![forced, Ending::forfeit(w)],
                    _ => vec![forced],
                }
            }
            _ => {
                let reasons: &[Outcome] = match result {
                    RecordResult::Win(w) => &[
                        Outcome::Win(w, WinReason::FrontRow),
                        Outcome::Win(w, WinReason::NoMoves),
                        Outcome::Win(w, WinReason::NeverEnding),
                    ],
                    RecordResult::Draw => &[
                        Outcome::Draw(DrawReason::Repetition),
                        Outcome::Draw(DrawReason::MaxPlies),
                        Outcome::Draw(DrawReason::NeverEnding),
                    ],
                    RecordResult::Unfinished => &[],
                };
                reasons
                    .iter()
                    .filter_map(|o| Ending::of_outcome(*o))
                    .collect()
            }
        };
        candidates
            .iter()
            .find(|e| text.is_some_and(|t| e.text() == t))
            .or(candidates.first())
            .copied()
    }
}

fn termination_word(r: EndReason) -> &'static str {
    match r {
        EndReason::Agreement => "agreement",
        EndReason::Adjudication => "adjudication",
        _ => "rules",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all() -> Vec<Ending> {
        let mut out = Vec::new();
        for w in [Some(Side::South), Some(Side::North), None] {
            for reason in [
                EndReason::FrontRow,
                EndReason::NoMoves,
                EndReason::NeverEnding,
                EndReason::Repetition,
                EndReason::MaxPlies,
                EndReason::Resignation,
                EndReason::Time,
                EndReason::Abandoned,
                EndReason::Forfeit,
                EndReason::Closed,
                EndReason::Agreement,
                EndReason::Adjudication,
            ] {
                out.push(Ending { reason, winner: w });
            }
        }
        out
    }

    #[test]
    fn a_stored_ending_reads_back_as_itself() {
        for e in all() {
            // Only the endings a game can have: a rules draw has no winner, a rules win one.
            let real = match e.reason {
                EndReason::FrontRow | EndReason::NoMoves => e.winner.is_some(),
                EndReason::Repetition | EndReason::MaxPlies => e.winner.is_none(),
                EndReason::Resignation
                | EndReason::Time
                | EndReason::Abandoned
                | EndReason::Forfeit => e.winner.is_some(),
                EndReason::Closed => e.winner.is_none(),
                _ => true,
            };
            if !real {
                continue;
            }
            let text = e.text();
            assert_eq!(
                Ending::read(e.result(), e.termination(), Some(&text)),
                Some(e),
                "{e:?}: {text}"
            );
        }
    }

    #[test]
    fn the_api_sentences_stay_as_they_were() {
        let time = Ending::forced(RecordResult::Win(Side::South), Termination::Time).unwrap();
        assert_eq!(time.text(), "North ran out of time: South has won");
        let resigned = Ending::forced(RecordResult::Win(Side::North), Termination::Resignation);
        assert_eq!(resigned.unwrap().text(), "South resigned: North has won");
        let json = serde_json::to_value(time).unwrap();
        assert_eq!(json, serde_json::json!({"reason": "time", "winner": "S"}));
        let draw = Ending::of_outcome(Outcome::Draw(DrawReason::Repetition)).unwrap();
        assert_eq!(
            serde_json::to_value(draw).unwrap(),
            serde_json::json!({"reason": "repetition", "winner": null})
        );
    }
}

//! API errors: a status and the contract's body `{"error": category, "message": sentence}`
//! (docs/api.md, "Errors"). The categories are one typed enum, [`Category`], each with the
//! status it is answered with, so that a page can map every category to its words and a
//! feature cannot invent a spelling of its own.

use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use bao_rules::MoveError;

macro_rules! categories {
    ($($(#[$m:meta])* $var:ident = $s:literal, $status:ident;)+) => {
        /// An error category of the contract (docs/api.md, "Errors"), written in snake case
        /// on the wire.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Category {
            $($(#[$m])* $var,)+
        }

        impl Category {
            /// Every category.
            pub const ALL: &'static [Category] = &[$(Category::$var,)+];

            /// The category as the body's `error` field writes it.
            pub fn as_str(self) -> &'static str {
                match self {
                    $(Category::$var => $s,)+
                }
            }

            /// The status a refusal of this category is answered with.
            pub fn status(self) -> StatusCode {
                match self {
                    $(Category::$var => StatusCode::$status,)+
                }
            }

            /// The category written `name`, if there is one (the NOT-5 categories of
            /// `bao-rules` and the domain's record errors are strings).
            pub fn named(name: &str) -> Option<Category> {
                match name {
                    $($s => Some(Category::$var),)+
                    _ => None,
                }
            }
        }
    };
}

categories! {
    /// Malformed JSON, a missing or bad field, a bad record file.
    BadRequest = "bad_request", BAD_REQUEST;
    /// Rule options that are not OPT-1.
    BadRules = "bad_rules", BAD_REQUEST;
    /// A position that is not NOT-3, or not playable.
    BadPosition = "bad_position", BAD_REQUEST;
    /// A move that is not move notation (NOT-5).
    BadMove = "bad_move", BAD_REQUEST;
    /// A move the rules do not allow here.
    IllegalMove = "illegal_move", UNPROCESSABLE_ENTITY;
    /// A move that matches more than one legal move.
    AmbiguousMove = "ambiguous_move", UNPROCESSABLE_ENTITY;
    /// The game is over.
    GameOver = "game_over", CONFLICT;
    /// It is the other player's turn.
    NotYourTurn = "not_your_turn", CONFLICT;
    /// Not allowed for this caller (a seat, another site, a wrong invite).
    Forbidden = "forbidden", FORBIDDEN;
    /// Nothing at this address.
    NotFound = "not_found", NOT_FOUND;
    /// A body or file over its limit.
    TooLarge = "too_large", PAYLOAD_TOO_LARGE;
    /// Another change came first.
    Conflict = "conflict", CONFLICT;
    /// The server failed.
    Internal = "internal", INTERNAL_SERVER_ERROR;
    /// The review queue is full.
    Busy = "busy", SERVICE_UNAVAILABLE;
    /// Not ready, or the database does not answer.
    Unavailable = "unavailable", SERVICE_UNAVAILABLE;
    /// The address does not take this method.
    MethodNotAllowed = "method_not_allowed", METHOD_NOT_ALLOWED;
    /// A JSON call without `Content-Type: application/json`.
    UnsupportedMediaType = "unsupported_media_type", UNSUPPORTED_MEDIA_TYPE;
    /// Over a rate limit.
    RateLimited = "rate_limited", TOO_MANY_REQUESTS;
    /// The request took too long.
    Timeout = "timeout", REQUEST_TIMEOUT;
    /// The call needs an account and the caller has no live session: the one answer for
    /// "signed out" everywhere, a guest's rated game included.
    NotSignedIn = "not_signed_in", UNAUTHORIZED;
    /// A wrong password, recovery code or name.
    BadCredentials = "bad_credentials", UNAUTHORIZED;
    /// The account name is taken.
    NameTaken = "name_taken", CONFLICT;
    /// A rated game between one account and itself.
    RatedSameAccount = "rated_same_account", FORBIDDEN;
    /// A rated game that cannot be one (the computer, pass and play, a set-up start).
    RatedNotAllowed = "rated_not_allowed", BAD_REQUEST;
    /// No account of that name.
    NoSuchUser = "no_such_user", NOT_FOUND;
    /// The open challenge is gone.
    NoSuchSeek = "no_such_seek", NOT_FOUND;
    /// Someone else accepted the open challenge first.
    SeekTaken = "seek_taken", CONFLICT;
    /// One's own open challenge.
    OwnSeek = "own_seek", FORBIDDEN;
    /// One of two accounts blocked the other.
    Blocked = "blocked", FORBIDDEN;
    /// Too many open challenges at once.
    TooManySeeks = "too_many_seeks", TOO_MANY_REQUESTS;
    /// Too many direct challenges waiting at once.
    TooManyChallenges = "too_many_challenges", TOO_MANY_REQUESTS;
    /// Too many players blocked.
    TooManyBlocks = "too_many_blocks", TOO_MANY_REQUESTS;
    /// No such direct challenge.
    NoSuchChallenge = "no_such_challenge", NOT_FOUND;
    /// The direct challenge is no longer open.
    ChallengeGone = "challenge_gone", CONFLICT;
    /// The place in the pool is gone.
    NoSuchTicket = "no_such_ticket", NOT_FOUND;
    /// No such tournament.
    NoSuchTournament = "no_such_tournament", NOT_FOUND;
    /// A private tournament's code is missing or wrong.
    NeedsCode = "needs_code", FORBIDDEN;
    /// The tournament is full.
    Full = "full", CONFLICT;
    /// The tournament has started.
    Started = "started", CONFLICT;
    /// The player is not registered in the tournament.
    NotRegistered = "not_registered", CONFLICT;
    /// The tournament is over.
    Over = "over", CONFLICT;
    /// Only the organiser may do this.
    NotOrganiser = "not_organiser", FORBIDDEN;
    /// The tournament's status does not allow this now.
    WrongStatus = "wrong_status", CONFLICT;
    /// A tournament needs two players to start.
    TooFewPlayers = "too_few_players", CONFLICT;
    /// The other player declined the rematch.
    RematchDeclined = "rematch_declined", CONFLICT;
    /// The rematch offer no longer stands.
    RematchLapsed = "rematch_lapsed", CONFLICT;
    /// No such club.
    NoSuchClub = "no_such_club", NOT_FOUND;
    /// Only the club's leaders (or admins, where they may) can do this.
    NotClubLeader = "not_club_leader", FORBIDDEN;
    /// The account was removed from the club with a ban.
    BannedFromClub = "banned_from_club", FORBIDDEN;
    /// A club always keeps a leader.
    LastLeader = "last_leader", CONFLICT;
    /// Something of the club is under way (a team match accepted or played, a tournament,
    /// an arena, a team battle): it is dissolved after.
    ClubBusy = "club_busy", CONFLICT;
    /// The player named is not a member of the club (nor asking to join).
    NotClubMember = "not_club_member", CONFLICT;
    /// The account is in as many clubs as it may be.
    TooManyClubs = "too_many_clubs", TOO_MANY_REQUESTS;
    /// Only the club's members may join this tournament.
    ClubMembersOnly = "club_members_only", FORBIDDEN;
    /// Only moderators may do this (docs/api.md, "Fair play").
    NotModerator = "not_moderator", FORBIDDEN;
    /// The account was marked as playing with an engine's help: no rated competition.
    EngineMarked = "engine_marked", FORBIDDEN;
    /// Too many reports in a day.
    TooManyReports = "too_many_reports", TOO_MANY_REQUESTS;
}

impl std::fmt::Display for Category {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for Category {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Category {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl serde::Serialize for Category {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(self.as_str())
    }
}

/// An error answered to a client.
#[derive(Debug, Clone)]
pub struct ApiError {
    /// HTTP status (the category's, but for a few documented exceptions).
    pub status: StatusCode,
    /// The category.
    pub category: Category,
    /// A sentence for people.
    pub message: String,
}

impl ApiError {
    /// An error of `category`, answered with the category's status.
    pub fn of(category: Category, m: impl Into<String>) -> Self {
        Self::new(category.status(), category, m)
    }
    /// An error of `category` with a status of its own (a documented exception, such as
    /// a record file's refusals, all 400).
    pub fn new(status: StatusCode, category: Category, message: impl Into<String>) -> Self {
        ApiError {
            status,
            category,
            message: message.into(),
        }
    }
    /// 400 `bad_request`.
    pub fn bad_request(m: impl Into<String>) -> Self {
        Self::of(Category::BadRequest, m)
    }
    /// 404 `not_found`.
    pub fn not_found(m: impl Into<String>) -> Self {
        Self::of(Category::NotFound, m)
    }
    /// 404 `no_such_user`, naming the name asked for (printable, at most 40 characters).
    pub fn no_such_user(name: &str) -> Self {
        Self::of(
            Category::NoSuchUser,
            format!(
                "there is no player named '{}'",
                bao_rules::printable(name)
                    .chars()
                    .take(40)
                    .collect::<String>()
            ),
        )
    }
    /// 403 `forbidden`.
    pub fn forbidden(m: impl Into<String>) -> Self {
        Self::of(Category::Forbidden, m)
    }
    /// 409 `conflict`.
    pub fn conflict(m: impl Into<String>) -> Self {
        Self::of(Category::Conflict, m)
    }
    /// 409 `game_over`.
    pub fn game_over(m: impl Into<String>) -> Self {
        Self::of(Category::GameOver, m)
    }
    /// 409 `not_your_turn`.
    pub fn not_your_turn(m: impl Into<String>) -> Self {
        Self::of(Category::NotYourTurn, m)
    }
    /// 413 `too_large`.
    pub fn too_large(m: impl Into<String>) -> Self {
        Self::of(Category::TooLarge, m)
    }
    /// 401 `not_signed_in`: the caller has no live session and the call needs an account.
    pub fn not_signed_in() -> Self {
        Self::of(
            Category::NotSignedIn,
            "you are not signed in: this needs an account; log in (or sign up) and try again",
        )
    }
    /// The same 401 `not_signed_in`, saying what needs the account ("a rated game").
    pub fn needs_account(what: &str) -> Self {
        Self::of(
            Category::NotSignedIn,
            format!("{what} needs an account: log in (or sign up) and try again"),
        )
    }
    /// 500 `internal`. The detail goes to the log, not to the client.
    pub fn internal(detail: impl std::fmt::Display) -> Self {
        tracing::error!("internal error: {detail}");
        Self::of(
            Category::Internal,
            "the server failed; the game is unchanged, please try again",
        )
    }

    /// The body, as JSON.
    pub fn body(&self) -> serde_json::Value {
        serde_json::json!({"error": self.category.as_str(), "message": self.message})
    }
}

impl From<MoveError> for ApiError {
    fn from(e: MoveError) -> Self {
        let category = match e {
            MoveError::Malformed { .. } => Category::BadMove,
            MoveError::Illegal { .. } => Category::IllegalMove,
            MoveError::Ambiguous { .. } => Category::AmbiguousMove,
            MoveError::GameOver { .. } => Category::GameOver,
        };
        ApiError::of(category, e.to_string())
    }
}

impl From<crate::domain::record::RecordError> for ApiError {
    /// A refused record file: always 400, with the move's category for a refused move
    /// (docs/api.md, `POST /api/records`).
    fn from(e: crate::domain::record::RecordError) -> Self {
        let category = Category::named(e.category).unwrap_or(Category::BadRequest);
        ApiError::new(StatusCode::BAD_REQUEST, category, e.to_string())
    }
}

impl From<crate::store::StoreError> for ApiError {
    /// A conflict is the player's 409 (another change came first); anything else is the
    /// server's failure, logged.
    fn from(e: crate::store::StoreError) -> Self {
        match e {
            crate::store::StoreError::Conflict(m) => ApiError::conflict(m),
            e => ApiError::internal(e),
        }
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        (self.status, axum::Json(self.body())).into_response()
    }
}

/// Result of an API operation.
pub type ApiResult<T> = Result<T, ApiError>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_category_has_one_spelling_and_reads_back() {
        let mut seen = std::collections::HashSet::new();
        for c in Category::ALL {
            assert!(seen.insert(c.as_str()), "{c} twice");
            assert_eq!(Category::named(c.as_str()), Some(*c));
            assert!(c
                .as_str()
                .bytes()
                .all(|b| b.is_ascii_lowercase() || b == b'_'));
            assert!(c.status().is_client_error() || c.status().is_server_error());
        }
        assert_eq!(Category::named("needs_account"), None);
        assert_eq!(Category::NotSignedIn.status(), StatusCode::UNAUTHORIZED);
    }
}

//! A class: one teacher's page leads and the students' pages follow, each
//! computing on its own device. Only the page's state travels (its address:
//! text, model, view, layer, head, token, step), never a number of a trace.
//!
//! This floor holds what a class is, without sockets: the messages
//! (`messages.rs`, validated on the way in) and who is where and who hears
//! what (`room.rs`). The native server (`cli/classroom/`) carries them over
//! WebSocket; the page (`web/views/classroom/`) speaks them.

pub mod messages;
pub mod room;

pub use messages::{FromRoom, Question, QuestionKind, ToRoom, MAX_MESSAGE_BYTES};
pub use room::{Classroom, ClientId, Refused};

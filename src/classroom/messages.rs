//! What pages and the class's server say to each other, as JSON objects of one key, the
//! message's kind (`{"join": {"code": …, "student": …}}`; serde's plain enum form, whose
//! reader is a fraction of the size of a tagged one in the page's wasm). Everything arriving is bounded here: a message too long, of an
//! unknown shape or with a field out of range is refused as a whole.

use serde::{Deserialize, Serialize};

/// No message, either way, is longer (the teacher's state is most of it).
pub const MAX_MESSAGE_BYTES: usize = 64 * 1024;
/// The teacher's state: the page's query string (its text is at most 10,000 characters,
/// up to 9 bytes each once percent-encoded… the limit is the message's).
pub const MAX_STATE_BYTES: usize = 60 * 1024;
/// A join code: this many letters of [`CODE_ALPHABET`] (50 bits).
pub const CODE_LEN: usize = 10;
/// Crockford's base 32: no I, L, O or U, and a code typed with O for 0 or I, L for 1 still
/// reads right, so a code read off a projector is typed without doubt.
pub const CODE_ALPHABET: &[u8; 32] = b"0123456789ABCDEFGHJKMNPQRSTVWXYZ";
/// A question's prompt and its choices' text.
pub const MAX_PROMPT_CHARS: usize = 300;
pub const MAX_CHOICE_CHARS: usize = 80;
pub const MAX_CHOICES: usize = 8;
/// Tokens or heads a question may offer.
pub const MAX_OPTIONS: usize = 4096;

/// From a page to the server.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum ToRoom {
    /// Open a new class and lead it.
    Start {},
    /// Lead the class this secret opened (after a reload, or a restarted server).
    Teach { secret: String },
    /// Follow the class of this code; `student` is the page's own random name for itself,
    /// so that a student who comes back is the same student (one answer each).
    Join { code: String, student: String },
    /// The teacher's page's state, as its query string.
    State { state: String },
    /// The teacher asks the room.
    Ask { question: Question },
    /// The teacher ends the question.
    EndQuestion {},
    /// A student's answer to question `question`: an index into its options.
    Answer { question: u32, choice: u32 },
}

/// From the server to a page.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum FromRoom {
    /// A new class: its join code, and the secret that leads it (the teacher's page keeps it).
    Started { code: String, secret: String },
    /// Leading the class of this code.
    Teaching { code: String },
    /// Following; the state comes next when the teacher has sent one.
    Joined { code: String },
    /// No class of that code yet: the page is told as soon as its teacher opens it.
    Waiting { code: String },
    /// The teacher's state.
    State { state: String },
    /// To the teacher: how many students follow.
    Followers { count: usize },
    /// To students: the question asked (and the student's own answer, if any).
    Asked { id: u32, question: Question, mine: Option<u32> },
    /// To students: the question is over.
    QuestionEnded { id: u32 },
    /// To the teacher: the answers so far, one count per option.
    Answers { id: u32, counts: Vec<u32>, answered: u32 },
    /// The message was refused (and the connection is closed).
    Refused { reason: String },
}

/// What the teacher asks.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Question {
    pub prompt: String,
    pub kind: QuestionKind,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum QuestionKind {
    /// Tap one of the text's tokens (shown as the students' pages show them).
    Token { tokens: u32 },
    /// Pick a head: `layers × heads`, answered as `layer · heads + head`.
    Head { layers: u32, heads: u32 },
    /// One of these written choices.
    Choice { choices: Vec<String> },
}

impl Question {
    /// How many answers there are to choose from.
    pub fn options(&self) -> usize {
        match &self.kind {
            QuestionKind::Token { tokens } => *tokens as usize,
            QuestionKind::Head { layers, heads } => (*layers as usize) * (*heads as usize),
            QuestionKind::Choice { choices } => choices.len(),
        }
    }

    fn check(&self) -> Result<(), String> {
        if self.prompt.chars().count() > MAX_PROMPT_CHARS {
            return Err(format!("a question's prompt has at most {MAX_PROMPT_CHARS} characters"));
        }
        if let QuestionKind::Choice { choices } = &self.kind {
            if choices.len() > MAX_CHOICES {
                return Err(format!("a question has at most {MAX_CHOICES} choices"));
            }
            if choices.iter().any(|c| c.chars().count() > MAX_CHOICE_CHARS) {
                return Err(format!("a choice has at most {MAX_CHOICE_CHARS} characters"));
            }
        }
        match self.options() {
            n if n < 2 => Err("a question needs two options at least".into()),
            n if n > MAX_OPTIONS => Err(format!("a question has at most {MAX_OPTIONS} options")),
            _ => Ok(()),
        }
    }
}

impl ToRoom {
    /// A message as it arrived: JSON of one of the shapes above, within every bound.
    pub fn parse(text: &str) -> Result<ToRoom, String> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(format!("a message has at most {MAX_MESSAGE_BYTES} bytes"));
        }
        let message: ToRoom =
            serde_json::from_str(text).map_err(|e| format!("not a message of a class: {e}"))?;
        message.check()?;
        Ok(message)
    }

    fn check(&self) -> Result<(), String> {
        match self {
            ToRoom::Start {} | ToRoom::EndQuestion {} | ToRoom::Answer { .. } => Ok(()),
            ToRoom::Teach { secret } => check_secret(secret),
            ToRoom::Join { code, student } => {
                normal_code(code).ok_or("not a class's code")?;
                check_secret(student).map_err(|_| "not a student's name".into())
            }
            ToRoom::State { state } if state.len() > MAX_STATE_BYTES => {
                Err(format!("a state has at most {MAX_STATE_BYTES} bytes"))
            }
            ToRoom::State { .. } => Ok(()),
            ToRoom::Ask { question } => question.check(),
        }
    }

    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("messages serialize")
    }
}

impl FromRoom {
    pub fn to_json(&self) -> String {
        serde_json::to_string(self).expect("messages serialize")
    }

    pub fn parse(text: &str) -> Result<FromRoom, String> {
        if text.len() > MAX_MESSAGE_BYTES {
            return Err(format!("a message has at most {MAX_MESSAGE_BYTES} bytes"));
        }
        serde_json::from_str(text).map_err(|e| format!("not a message of a class: {e}"))
    }
}

/// A secret (or a student's name): 16 to 64 characters of base64url, as pages make them.
fn check_secret(secret: &str) -> Result<(), String> {
    let fits = (16..=64).contains(&secret.len())
        && secret.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if fits {
        Ok(())
    } else {
        Err("not a class's secret".into())
    }
}

/// A code as typed (any case, spaces and dashes ignored), in its one written form.
pub fn normal_code(code: &str) -> Option<String> {
    let code: String = code
        .chars()
        .filter(|c| !c.is_whitespace() && *c != '-')
        .map(|c| match c.to_ascii_uppercase() {
            'O' => '0',
            'I' | 'L' => '1',
            c => c,
        })
        .collect();
    let fits = code.len() == CODE_LEN && code.bytes().all(|b| CODE_ALPHABET.contains(&b));
    fits.then_some(code)
}

/// The code a secret opens: the first 50 bits of its SHA-256, in [`CODE_ALPHABET`]. Only the
/// holder of the secret can open the class of a code, even on a server that restarted and no
/// longer knows it, and a student, who knows the code, cannot find the secret from it.
pub fn code_of(secret: &str) -> String {
    use sha2::{Digest, Sha256};
    let digest = Sha256::digest(format!("attnscope class {secret}").as_bytes());
    let bits = u64::from_be_bytes(digest[..8].try_into().expect("8 bytes"));
    (0..CODE_LEN).map(|i| CODE_ALPHABET[((bits >> (59 - 5 * i)) & 31) as usize] as char).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_round_trip_and_keep_their_shape() {
        let ask = ToRoom::Ask {
            question: Question {
                prompt: "Which token does “it” attend to most?".into(),
                kind: QuestionKind::Token { tokens: 9 },
            },
        };
        assert_eq!(ToRoom::parse(&ask.to_json()), Ok(ask));
        assert_eq!(ToRoom::parse(r#"{"start":{}}"#), Ok(ToRoom::Start {}));
        let state = r#"{"state":{"state":"?text=hi&view=grid"}}"#;
        assert_eq!(ToRoom::parse(state), Ok(ToRoom::State { state: "?text=hi&view=grid".into() }));
    }

    #[test]
    fn malformed_or_oversized_messages_are_refused() {
        for bad in [
            "",
            "null",
            "{}",
            r#"{"lead":{}}"#,
            r#"{"start":{"extra":1}}"#,
            r#"{"start":{},"join":{}}"#,
            r#"{"join":{"code":"ABC","student":"aaaaaaaaaaaaaaaa"}}"#,
            r#"{"join":{"code":"2345678923","student":"short"}}"#,
            r#"{"teach":{"secret":"../../../../etc/passwd"}}"#,
            r#"{"answer":{"question":-1,"choice":0}}"#,
            r#"{"ask":{"question":{"prompt":"?","kind":{"choice":{"choices":["one"]}}}}}"#,
            r#"{"ask":{"question":{"prompt":"?","kind":{"head":{"layers":100000,"heads":100000}}}}}"#,
        ] {
            assert!(ToRoom::parse(bad).is_err(), "{bad}");
        }
        let long = ToRoom::State { state: "x".repeat(MAX_STATE_BYTES + 1) }.to_json();
        assert!(ToRoom::parse(&long).unwrap_err().contains("at most"));
        let huge = format!(r#"{{"state":{{"state":"{}"}}}}"#, "x".repeat(MAX_MESSAGE_BYTES));
        assert!(ToRoom::parse(&huge).is_err());
    }

    #[test]
    fn codes_come_from_secrets_and_read_any_way_they_are_typed() {
        let code = code_of("a-secret-of-the-teachers-page");
        assert_eq!(code.len(), CODE_LEN);
        assert_eq!(code, code_of("a-secret-of-the-teachers-page"));
        assert_ne!(code, code_of("another-secret-of-a-teacher"));
        let typed = format!("{}-{} ", code[..5].to_lowercase(), &code[5..]);
        assert_eq!(normal_code(&typed), Some(code));
        assert_eq!(normal_code("0o1il23456"), Some("0011123456".into()));
        assert_eq!(normal_code("U123456789"), None);
        assert_eq!(normal_code("12345"), None);
    }
}

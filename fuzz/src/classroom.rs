//! Any bytes as the messages of a class's connections: each line is one message, from the
//! connection its first byte names (a line starting with `!` closes that connection instead).
//! A message parses or is refused; one that parses writes back as itself; the room never
//! panics, whatever order of hellos, states, questions and answers arrives; and only the
//! teacher's connection changes the state students receive.

use attnscope::classroom::{Classroom, FromRoom, ToRoom};

/// One input of the fuzz target `classroom` (fuzz/fuzz_targets/classroom.rs).
pub fn run(data: &[u8]) {
    let mut room = Classroom::new();
    let mut secrets = 0u32;
    for line in data.split(|&b| b == b'\n') {
        let Some((&who, rest)) = line.split_first() else { continue };
        let client = u64::from(who % 8);
        if who == b'!' {
            room.leave(u64::from(rest.first().copied().unwrap_or(0) % 8));
            continue;
        }
        let Ok(message) = ToRoom::parse(&String::from_utf8_lossy(rest)) else { continue };
        assert_eq!(ToRoom::parse(&message.to_json()).as_ref(), Ok(&message));
        let is_state = matches!(message, ToRoom::State { .. });
        let fresh = || {
            secrets += 1;
            format!("fuzzed-secret-number-{secrets}")
        };
        match room.hear(client, message, fresh) {
            Ok(out) => {
                for (_, m) in &out {
                    // Every delivery writes as JSON and reads back.
                    assert_eq!(FromRoom::parse(&m.to_json()).as_ref(), Ok(m));
                    if matches!(m, FromRoom::State { .. }) {
                        assert!(
                            is_state
                                || out.iter().any(|(_, m)| matches!(m, FromRoom::Joined { .. }))
                        );
                    }
                }
            }
            Err(refused) => assert!(!refused.0.is_empty()),
        }
    }
}

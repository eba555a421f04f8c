//! Who is in which class, and who hears what. The server calls [`Classroom::hear`] for each
//! message a connection sends and [`Classroom::leave`] when it closes, and delivers what they
//! return; nothing here knows of sockets, so every rule is tested natively.
//!
//! The rules: only a connection that showed the class's secret leads it (its state and its
//! questions); students answer, once each (a student who comes back is the same student, by
//! the name their page made for itself); a class outlives its connections, so a teacher's
//! reload keeps it, and a restarted server re-opens it when its teacher comes back.

use super::messages::{code_of, normal_code, FromRoom, Question, ToRoom};
use std::collections::{BTreeMap, HashMap};

/// A connection, numbered by the server.
pub type ClientId = u64;

/// The open classes a server holds at most (one laptop, a few rooms).
pub const MAX_CLASSES: usize = 16;

/// A message refused: the reason goes back, and the server closes that connection.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refused(pub String);

/// Messages to deliver: to whom, what.
pub type Deliveries = Vec<(ClientId, FromRoom)>;

#[derive(Default)]
pub struct Classroom {
    classes: BTreeMap<String, Class>,
    clients: HashMap<ClientId, Role>,
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Role {
    Teacher {
        code: String,
    },
    /// Following, or waiting for the class of `code` to open.
    Student {
        code: String,
        name: String,
    },
}

#[derive(Default)]
struct Class {
    /// The teacher's latest state.
    state: Option<String>,
    question: Option<Open>,
    asked: u32,
}

/// The question open now and each student's answer to it.
struct Open {
    id: u32,
    question: Question,
    answers: BTreeMap<String, u32>,
}

impl Classroom {
    pub fn new() -> Self {
        Self::default()
    }

    /// What a connection's message does. `fresh_secret` makes a new class's secret (the
    /// server's random bytes); it is called only to start a class.
    pub fn hear(
        &mut self,
        from: ClientId,
        message: ToRoom,
        fresh_secret: impl FnOnce() -> String,
    ) -> Result<Deliveries, Refused> {
        let role = self.clients.get(&from).cloned();
        match (message, role) {
            (ToRoom::Start {}, None) => {
                let secret = fresh_secret();
                let code = code_of(&secret);
                let mut out = self.open(&code, from)?;
                out.insert(0, (from, FromRoom::Started { code, secret }));
                Ok(out)
            }
            (ToRoom::Teach { secret }, None) => {
                let code = code_of(&secret);
                let mut out = self.open(&code, from)?;
                out.insert(0, (from, FromRoom::Teaching { code }));
                Ok(out)
            }
            (ToRoom::Join { code, student }, None) => {
                let code = normal_code(&code).ok_or_else(|| refuse("not a class's code"))?;
                self.clients.insert(from, Role::Student { code: code.clone(), name: student });
                if !self.classes.contains_key(&code) {
                    return Ok(vec![(from, FromRoom::Waiting { code })]);
                }
                let mut out = self.welcome(from);
                out.extend(self.count(&code));
                Ok(out)
            }
            (ToRoom::Start {} | ToRoom::Teach { .. } | ToRoom::Join { .. }, Some(_)) => {
                Err(refuse("this connection is in a class already"))
            }
            (ToRoom::State { state }, Some(Role::Teacher { code })) => {
                let class = self.classes.get_mut(&code).expect("a teacher's class is open");
                if class.state.as_ref() == Some(&state) {
                    return Ok(Vec::new());
                }
                class.state = Some(state.clone());
                let students = self.students(&code);
                Ok(students.map(|s| (s, FromRoom::State { state: state.clone() })).collect())
            }
            (ToRoom::Ask { question }, Some(Role::Teacher { code })) => {
                let class = self.classes.get_mut(&code).expect("a teacher's class is open");
                class.asked += 1;
                let id = class.asked;
                let open = Open { id, question: question.clone(), answers: BTreeMap::new() };
                class.question = Some(open);
                let asked = FromRoom::Asked { id, question, mine: None };
                let mut out: Deliveries =
                    self.students(&code).map(|s| (s, asked.clone())).collect();
                out.extend(self.tally(&code));
                Ok(out)
            }
            (ToRoom::EndQuestion {}, Some(Role::Teacher { code })) => {
                let class = self.classes.get_mut(&code).expect("a teacher's class is open");
                let Some(open) = class.question.take() else { return Ok(Vec::new()) };
                let ended = FromRoom::QuestionEnded { id: open.id };
                Ok(self.students(&code).map(|s| (s, ended.clone())).collect())
            }
            (ToRoom::Answer { question, choice }, Some(Role::Student { code, name })) => {
                let open = self.classes.get_mut(&code).and_then(|c| c.question.as_mut());
                let Some(open) = open.filter(|o| o.id == question) else {
                    // The question ended while the answer travelled: nothing to count.
                    return Ok(Vec::new());
                };
                if choice as usize >= open.question.options() {
                    return Err(refuse("no such choice"));
                }
                open.answers.insert(name, choice);
                Ok(self.tally(&code))
            }
            (ToRoom::State { .. } | ToRoom::Ask { .. } | ToRoom::EndQuestion {}, _) => {
                Err(refuse("only the teacher leads the class"))
            }
            (ToRoom::Answer { .. }, _) => Err(refuse("only a student answers")),
        }
    }

    /// A connection closed: its teacher hears how many still follow.
    pub fn leave(&mut self, client: ClientId) -> Deliveries {
        match self.clients.remove(&client) {
            Some(Role::Student { code, .. }) => self.count(&code),
            _ => Vec::new(),
        }
    }

    /// How many connections follow the class of `code`.
    pub fn followers(&self, code: &str) -> usize {
        self.students(code).count()
    }

    /// The teacher's latest state in the class of `code`.
    pub fn state(&self, code: &str) -> Option<&str> {
        self.classes.get(code)?.state.as_deref()
    }

    /// `teacher` leads the class of `code`, opened now if it is not (students waiting for
    /// it join); a server full of classes closes one nobody is in.
    fn open(&mut self, code: &str, teacher: ClientId) -> Result<Deliveries, Refused> {
        let new = !self.classes.contains_key(code);
        if new {
            if self.classes.len() >= MAX_CLASSES {
                let empty = self.classes.keys().find(|c| self.connected(c) == 0).cloned();
                let empty =
                    empty.ok_or_else(|| refuse("this server has all the classes it holds"))?;
                self.classes.remove(&empty);
            }
            self.classes.insert(code.to_string(), Class::default());
        }
        self.clients.insert(teacher, Role::Teacher { code: code.to_string() });
        // Students who waited for a class that was not open join it now; those of an open
        // class (the teacher's page reloaded) follow on as they were.
        let waiting: Vec<ClientId> = if new { self.students(code).collect() } else { vec![] };
        let mut out: Deliveries = waiting.into_iter().flat_map(|s| self.welcome(s)).collect();
        out.extend(self.count(code));
        Ok(out)
    }

    /// What a student hears on joining an open class: that it joined, the state, the question.
    fn welcome(&self, student: ClientId) -> Deliveries {
        let Some(Role::Student { code, name }) = self.clients.get(&student) else { return vec![] };
        let class = &self.classes[code];
        let mut out = vec![(student, FromRoom::Joined { code: code.clone() })];
        if let Some(state) = &class.state {
            out.push((student, FromRoom::State { state: state.clone() }));
        }
        if let Some(open) = &class.question {
            let mine = open.answers.get(name).copied();
            let asked = FromRoom::Asked { id: open.id, question: open.question.clone(), mine };
            out.push((student, asked));
        }
        out
    }

    /// The teachers of `code` hear how many follow.
    fn count(&self, code: &str) -> Deliveries {
        let count = self.followers(code);
        self.teachers(code).map(|t| (t, FromRoom::Followers { count })).collect()
    }

    /// The teachers of `code` hear the answers so far.
    fn tally(&self, code: &str) -> Deliveries {
        let Some(open) = self.classes.get(code).and_then(|c| c.question.as_ref()) else {
            return Vec::new();
        };
        let mut counts = vec![0u32; open.question.options()];
        for &choice in open.answers.values() {
            counts[choice as usize] += 1;
        }
        let answers =
            FromRoom::Answers { id: open.id, counts, answered: open.answers.len() as u32 };
        self.teachers(code).map(|t| (t, answers.clone())).collect()
    }

    fn teachers<'a>(&'a self, code: &'a str) -> impl Iterator<Item = ClientId> + 'a {
        self.clients.iter().filter_map(move |(&id, role)| match role {
            Role::Teacher { code: c } if c == code => Some(id),
            _ => None,
        })
    }

    fn students<'a>(&'a self, code: &'a str) -> impl Iterator<Item = ClientId> + 'a {
        self.clients.iter().filter_map(move |(&id, role)| match role {
            Role::Student { code: c, .. } if c == code => Some(id),
            _ => None,
        })
    }

    fn connected(&self, code: &str) -> usize {
        self.teachers(code).count() + self.students(code).count()
    }
}

fn refuse(reason: &str) -> Refused {
    Refused(reason.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::classroom::QuestionKind;

    const SECRET: &str = "the-teachers-secret-0123456789";
    const ALICE: &str = "alice-page-name-0001";
    const BOB: &str = "bob-page-name-000002";

    fn secret() -> String {
        SECRET.to_string()
    }

    fn to(out: &Deliveries, who: ClientId) -> Vec<&FromRoom> {
        out.iter().filter(|(c, _)| *c == who).map(|(_, m)| m).collect()
    }

    fn join(room: &mut Classroom, id: ClientId, code: &str, name: &str) -> Deliveries {
        let join = ToRoom::Join { code: code.into(), student: name.into() };
        room.hear(id, join, || unreachable!()).unwrap()
    }

    fn state(s: &str) -> ToRoom {
        ToRoom::State { state: s.into() }
    }

    #[test]
    fn students_follow_the_teacher_and_only_the_teacher_leads() {
        let mut room = Classroom::new();
        let out = room.hear(1, ToRoom::Start {}, secret).unwrap();
        let code = code_of(SECRET);
        assert_eq!(out[0], (1, FromRoom::Started { code: code.clone(), secret: secret() }));
        assert_eq!(to(&out, 1)[1], &FromRoom::Followers { count: 0 });

        room.hear(1, state("?text=one"), secret).unwrap();
        let out = join(&mut room, 2, &code.to_lowercase(), ALICE);
        assert_eq!(
            to(&out, 2),
            [
                &FromRoom::Joined { code: code.clone() },
                &FromRoom::State { state: "?text=one".into() }
            ]
        );
        assert_eq!(to(&out, 1), [&FromRoom::Followers { count: 1 }]);
        join(&mut room, 3, &code, BOB);

        let out = room.hear(1, state("?text=two"), secret).unwrap();
        let mut heard: Vec<ClientId> = out.iter().map(|(c, _)| *c).collect();
        heard.sort();
        assert_eq!(heard, [2, 3]);
        // The same state again is not sent again.
        assert!(room.hear(1, state("?text=two"), secret).unwrap().is_empty());

        // A student cannot lead, nor start or join a second class on the same connection.
        let refused = room.hear(2, state("?text=mine"), secret).unwrap_err();
        assert_eq!(refused.0, "only the teacher leads the class");
        assert!(room.hear(2, ToRoom::Start {}, secret).is_err());
        assert_eq!(room.state(&code), Some("?text=two"));

        assert_eq!(room.leave(3), [(1, FromRoom::Followers { count: 1 })]);
        assert_eq!(room.followers(&code), 1);
    }

    #[test]
    fn a_teacher_comes_back_with_the_secret_and_students_who_waited_join() {
        // A server that restarted knows no class: students wait for theirs…
        let mut room = Classroom::new();
        let code = code_of(SECRET);
        assert_eq!(
            join(&mut room, 5, &code, ALICE),
            [(5, FromRoom::Waiting { code: code.clone() })]
        );
        // …and a student who guesses at a secret opens a class of another code, not theirs.
        let out = room.hear(6, ToRoom::Teach { secret: "not-the-teachers-secret".into() }, secret);
        assert_ne!(out.unwrap()[0].1, FromRoom::Teaching { code: code.clone() });
        assert_eq!(room.followers(&code), 1);

        let out = room.hear(7, ToRoom::Teach { secret: secret() }, secret).unwrap();
        assert_eq!(
            to(&out, 7),
            [&FromRoom::Teaching { code: code.clone() }, &FromRoom::Followers { count: 1 }]
        );
        assert_eq!(to(&out, 5), [&FromRoom::Joined { code: code.clone() }]);
        // The teacher's page sends the state it holds; the waiting student gets it.
        assert_eq!(
            room.hear(7, state("?view=grid"), secret).unwrap(),
            [(5, FromRoom::State { state: "?view=grid".into() })]
        );
        // The teacher's connection closing (a reload) keeps the class and its state.
        room.leave(7);
        let out = room.hear(8, ToRoom::Teach { secret: secret() }, secret).unwrap();
        assert_eq!(room.state(&code), Some("?view=grid"));
        // The students of an open class hear nothing of it.
        assert!(to(&out, 5).is_empty());
    }

    #[test]
    fn each_student_answers_once_and_a_returning_student_is_the_same_one() {
        let mut room = Classroom::new();
        room.hear(1, ToRoom::Start {}, secret).unwrap();
        let code = code_of(SECRET);
        join(&mut room, 2, &code, ALICE);
        join(&mut room, 3, &code, BOB);
        let question = Question {
            prompt: "Which head?".into(),
            kind: QuestionKind::Head { layers: 2, heads: 3 },
        };
        let out = room.hear(1, ToRoom::Ask { question: question.clone() }, secret).unwrap();
        let asked = FromRoom::Asked { id: 1, question: question.clone(), mine: None };
        assert_eq!(to(&out, 2), [&asked]);
        assert_eq!(to(&out, 1), [&FromRoom::Answers { id: 1, counts: vec![0; 6], answered: 0 }]);

        room.hear(2, ToRoom::Answer { question: 1, choice: 4 }, secret).unwrap();
        room.hear(3, ToRoom::Answer { question: 1, choice: 4 }, secret).unwrap();
        // Alice changes her mind, then her phone sleeps and comes back on a new connection.
        room.hear(2, ToRoom::Answer { question: 1, choice: 5 }, secret).unwrap();
        room.leave(2);
        let out = join(&mut room, 9, &code, ALICE);
        assert!(to(&out, 9).contains(&&FromRoom::Asked { id: 1, question, mine: Some(5) }));
        let out = room.hear(9, ToRoom::Answer { question: 1, choice: 5 }, secret).unwrap();
        assert_eq!(
            out,
            [(1, FromRoom::Answers { id: 1, counts: vec![0, 0, 0, 0, 1, 1], answered: 2 })]
        );

        // Out of range is refused; an answer to an ended question is dropped.
        assert!(room.hear(3, ToRoom::Answer { question: 1, choice: 6 }, secret).is_err());
        assert!(room.hear(1, ToRoom::Answer { question: 1, choice: 0 }, secret).is_err());
        let out = room.hear(1, ToRoom::EndQuestion {}, secret).unwrap();
        assert_eq!(to(&out, 9), [&FromRoom::QuestionEnded { id: 1 }]);
        assert!(room
            .hear(9, ToRoom::Answer { question: 1, choice: 0 }, secret)
            .unwrap()
            .is_empty());
    }

    #[test]
    fn a_full_server_closes_an_empty_class_or_refuses() {
        let mut room = Classroom::new();
        for id in 0..MAX_CLASSES as u64 {
            room.hear(id, ToRoom::Start {}, || format!("secret-number-{id:08}")).unwrap();
        }
        let one_more = || "secret-number-extra1".to_string();
        assert!(room.hear(100, ToRoom::Start {}, one_more).is_err());
        room.leave(3);
        room.hear(101, ToRoom::Start {}, one_more).unwrap();
        assert_eq!(room.classes.len(), MAX_CLASSES);
        assert!(!room.classes.contains_key(&code_of("secret-number-00000003")));
    }
}

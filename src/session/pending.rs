//! Messages waiting to be computed (in the worker while it is busy, on the
//! page while the worker starts). Only the latest message of each kind is
//! kept: the page drops every reply about an older run, head or comparison,
//! so computing one would only delay the answer that counts.

use super::{ModelId, ToWorker};

/// What replaces what: a newer message of the same kind (and, for a
/// download, of the same model).
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Load(ModelId),
    Run,
    Head,
    Export,
    FindHeads,
    QueryRows,
    Compare,
    Custom,
    Write,
    Show,
    Analyze(usize),
    Listen,
    SpeechStep,
}

fn kind(msg: &ToWorker) -> Kind {
    match msg {
        ToWorker::Load { model, .. } => Kind::Load(*model),
        ToWorker::Run { .. } => Kind::Run,
        ToWorker::Head { .. } => Kind::Head,
        ToWorker::Export { .. } => Kind::Export,
        ToWorker::FindHeads { .. } => Kind::FindHeads,
        ToWorker::QueryRows { .. } => Kind::QueryRows,
        ToWorker::Compare { .. } => Kind::Compare,
        ToWorker::Custom(_) => Kind::Custom,
        ToWorker::Write { .. } => Kind::Write,
        ToWorker::Show { .. } => Kind::Show,
        ToWorker::Analyze { request, .. } => Kind::Analyze(request.kind()),
        ToWorker::Listen { .. } => Kind::Listen,
        ToWorker::SpeechStep { .. } => Kind::SpeechStep,
    }
}

/// A queue that coalesces by kind, first come first served otherwise.
#[derive(Default)]
pub struct Pending {
    queue: Vec<ToWorker>,
}

impl Pending {
    /// Queues `msg`; a waiting message of its kind is replaced where it
    /// stands, so a head asked after a run is still answered after it.
    pub fn push(&mut self, msg: ToWorker) {
        let k = kind(&msg);
        match self.queue.iter_mut().find(|m| kind(m) == k) {
            Some(waiting) => *waiting = msg,
            None => self.queue.push(msg),
        }
    }

    /// Puts back `msg`, taken but not answered (it waited for bytes of a
    /// hosted trace), to be computed next; unless one of its kind came
    /// meanwhile, which then stands for it.
    pub fn retry(&mut self, msg: ToWorker) {
        let k = kind(&msg);
        if !self.queue.iter().any(|m| kind(m) == k) {
            self.queue.insert(0, msg);
        }
    }

    /// The next message to compute.
    pub fn pop(&mut self) -> Option<ToWorker> {
        (!self.queue.is_empty()).then(|| self.queue.remove(0))
    }

    /// Everything waiting, in order.
    pub fn take_all(&mut self) -> Vec<ToWorker> {
        std::mem::take(&mut self.queue)
    }

    pub fn is_empty(&self) -> bool {
        self.queue.is_empty()
    }

    pub fn len(&self) -> usize {
        self.queue.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::RunOptions;

    fn run(id: u64, text: &str) -> ToWorker {
        ToWorker::Run {
            id,
            model: ModelId::Teaching,
            text: text.into(),
            options: RunOptions::default(),
        }
    }

    fn compare(id: u64, text: &str) -> ToWorker {
        ToWorker::Compare {
            id,
            model: ModelId::Teaching,
            text: text.into(),
            options: RunOptions::default(),
            layer: 0,
            head: 0,
        }
    }

    #[test]
    fn only_the_latest_of_each_kind_is_computed_in_arrival_order() {
        let mut p = Pending::default();
        p.push(run(1, "a"));
        p.push(ToWorker::Head { id: 1, layer: 0, head: 1, with_layer: true });
        p.push(compare(1, "x"));
        p.push(run(2, "ab"));
        p.push(ToWorker::Head { id: 2, layer: 0, head: 2, with_layer: true });
        p.push(ToWorker::Head { id: 2, layer: 0, head: 3, with_layer: true });
        p.push(compare(2, "xy"));
        p.push(compare(3, "xyz"));
        p.push(ToWorker::Load { model: ModelId::MiniLm, exact: false });
        p.push(ToWorker::Load { model: ModelId::SmolLm2, exact: false });
        p.push(ToWorker::Load { model: ModelId::MiniLm, exact: true });
        assert_eq!(p.len(), 5);
        let order: Vec<String> = std::iter::from_fn(|| p.pop()).map(|m| format!("{m:?}")).collect();
        assert!(order[0].starts_with("Run { id: 2") && order[0].contains("\"ab\""), "{order:?}");
        assert!(order[1].starts_with("Head { id: 2, layer: 0, head: 3"), "{order:?}");
        assert!(
            order[2].starts_with("Compare { id: 3") && order[2].contains("\"xyz\""),
            "{order:?}"
        );
        assert_eq!(
            &order[3..],
            ["Load { model: MiniLm, exact: true }", "Load { model: SmolLm2, exact: false }"]
        );
        assert!(p.is_empty());
    }

    #[test]
    fn a_message_put_back_goes_first_unless_a_newer_one_of_its_kind_waits() {
        let mut p = Pending::default();
        p.push(ToWorker::Export { id: 1 });
        p.retry(run(1, "a"));
        p.retry(ToWorker::Export { id: 0 });
        assert_eq!(p.len(), 2);
        assert!(format!("{:?}", p.pop()).contains("Run { id: 1"));
        assert!(format!("{:?}", p.pop()).contains("Export { id: 1 }"));
    }
}

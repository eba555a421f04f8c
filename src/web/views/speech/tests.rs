//! The Speech tab in the browser with a made-up clip (the component tests
//! have no Whisper: only the teaching model computes in the page): the
//! transcript, the readout's numbers from the summary, the token and head
//! choices, and the pictures drawn.

use super::{Speech, SpeechView, FIRST_ID};
use crate::canvas::cell_color;
use crate::canvas::look::HIDDEN;
use crate::compute::Engine;
use crate::state::{Appearance, Results, Selection};
use crate::test_support::*;
use crate::url_state::UrlState;
use attnscope::session::{HeardWord, SpeechStep, SpeechSummary, StepFrame};
use attnscope::tensor::Matrix;
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::wasm_bindgen_test;
use web_sys::{HtmlCanvasElement, HtmlElement, HtmlSelectElement};

fn mount() -> (HtmlElement, Speech) {
    let root = root_at("?view=speech");
    let state = std::rc::Rc::new(std::cell::Cell::new(None::<Speech>));
    let keep = state.clone();
    leptos::mount::mount_to(root.clone(), move || {
        let start = UrlState::current();
        provide_context(Selection::new(&start));
        provide_context(Results::new());
        provide_context(Appearance::new(&start));
        provide_context(Engine::empty());
        keep.set(Some(Speech::provide()));
        view! { <SpeechView /> }
    })
    .forget();
    (root, state.get().unwrap())
}

/// Three tokens over ten frames; token t listens around frame 3t + 1, with
/// `pad` of its weight left to the padding.
pub(crate) fn clip() -> SpeechSummary {
    let pad = [0.1f32, 0.2, 0.05];
    let head = |shift: usize| {
        let rows: Vec<Vec<f32>> = (0..3)
            .map(|t| {
                let mut r = vec![0.0f32; 10];
                let at = (3 * t + 1 + shift) % 10;
                r[at] = 0.6 * (1.0 - pad[t]);
                r[(at + 1) % 10] = 0.4 * (1.0 - pad[t]);
                r
            })
            .collect();
        Matrix::from_rows(&rows)
    };
    let cross = vec![vec![head(0), head(2)], vec![head(1), head(0)]];
    let mel = Matrix::from_rows(
        &(0..80)
            .map(|b| (0..20).map(|c| ((b + c) % 7) as f32 / 7.0).collect::<Vec<_>>())
            .collect::<Vec<_>>(),
    );
    SpeechSummary {
        tokens: vec!["<|startoftranscript|>".into(), "ĠHello".into(), "Ġworld".into()],
        text: "Hello world".into(),
        seconds: 0.2,
        frames: 10,
        mel,
        padding: vec![vec![pad.to_vec(); 2]; 2],
        alignment_heads: vec![(0, 0), (1, 1)],
        align: Some(head(0)),
        self_attention: (0..2).map(|l| (0..2).map(|h| causal_rows(l, h)).collect()).collect(),
        encoder_block: 2,
        encoder: (0..2).map(|l| (0..3).map(|h| encoder_cells(l, h)).collect()).collect(),
        words: vec![
            HeardWord { word: " Hello".into(), tokens: (1, 2), start: 0.0, end: 0.1 },
            HeardWord { word: " world".into(), tokens: (2, 3), start: 0.1, end: 0.2 },
        ],
        cross,
        scale: 0.125,
        notices: vec!["A notice.".into()],
        compute_ms: 12.0,
        memory_bytes: Some(300_000_000),
    }
}

/// The encoder's self-attention in blocks of two frames (5 × 5 for 10 frames): each row's
/// weights sum to 0.9 (a tenth went to the padding), `0.5 + 0.1 · (layer + head)` on the
/// diagonal.
fn encoder_cells(layer: usize, head: usize) -> Matrix {
    let diagonal = 0.5 + 0.1 * (layer + head) as f32;
    Matrix::from_rows(
        &(0..5)
            .map(|i| {
                (0..5).map(|j| if i == j { diagonal } else { (0.9 - diagonal) / 4.0 }).collect()
            })
            .collect::<Vec<Vec<f32>>>(),
    )
}

/// The decoder's causal self-attention among the three tokens: nothing above the diagonal,
/// each row summing to 1, with `d = 0.1 · (1 + layer + 2 · head)` telling the heads apart.
fn causal_rows(layer: usize, head: usize) -> Matrix {
    let d = 0.1 * (1 + layer + 2 * head) as f32;
    Matrix::from_rows(&[
        vec![1.0, 0.0, 0.0],
        vec![d, 1.0 - d, 0.0],
        vec![d / 2.0, 1.0 - 1.5 * d, d],
    ])
}

#[wasm_bindgen_test]
async fn the_decoders_causal_self_attention_is_drawn_with_its_mask_in_grey() {
    let (root, speech) = mount();
    speech.take(FIRST_ID, clip());
    settle("the decoder's map", || exists(&root, "#speech-decoder[data-cells]")).await;
    let canvas: HtmlCanvasElement = find(&root, "#speech-decoder");
    assert_eq!(canvas.get_attribute("data-cells").as_deref(), Some("3"));
    assert!(text_of(&root, "#speech-decoder-readout").contains("Hover a cell"));
    let layers: HtmlSelectElement = find(&root, "#speech-decoder-layer");
    let heads: HtmlSelectElement = find(&root, "#speech-decoder-head");
    assert_eq!((layers.length(), heads.length()), (2, 2));
    // Layer 2, head 2: d = 0.4, so "world" gives "Hello" 1 − 1.5 · 0.4 = 0.4.
    layers.set_value("1");
    fire(&layers, "change");
    heads.set_value("1");
    fire(&heads, "change");
    let w = causal_rows(1, 1);
    settle("the map of layer 2, head 2", || {
        map_fits(&root, "#speech-decoder", 3)
            && pixel_in(&root, "#speech-decoder", 2, 1) == cell_color(w[(2, 1)])
    })
    .await;
    // The keys the causal mask hides are grey, not the colour of a weight of 0.
    for (i, j) in [(0, 1), (0, 2), (1, 2)] {
        assert_eq!(pixel_in(&root, "#speech-decoder", i, j), HIDDEN, "cell ({i}, {j})");
    }
    assert_ne!(HIDDEN, cell_color(0.0));
    assert_eq!(pixel_in(&root, "#speech-decoder", 0, 0), cell_color(1.0));
    let c = cells(&canvas).unwrap();
    let el: HtmlElement = canvas.clone().unchecked_into();
    let at = |i: usize, j: usize| {
        (c.left + (j as f64 + 0.5) * c.cell, c.top + (i as f64 + 0.5) * c.cell)
    };
    let (x, y) = at(2, 1);
    mouse(&el, "mousemove", "MouseEvent", x, y);
    settle("the readout", || text_of(&root, "#speech-decoder-readout").contains("0.4000")).await;
    assert_eq!(text_of(&root, "#speech-decoder-readout"), "“world” → “Hello”: 0.4000");
    // A masked cell has no weight to read.
    let (x, y) = at(0, 2);
    mouse(&el, "mousemove", "MouseEvent", x, y);
    settle("a hidden key", || text_of(&root, "#speech-decoder-readout").contains("mask")).await;
    let r = text_of(&root, "#speech-decoder-readout");
    assert_eq!(
        r,
        "“<|startoftranscript|>” → “world”: hidden by the causal mask (“world” is written later)"
    );
    assert!(!r.contains("0.0000"), "{r}");
    // A click chooses the cell's query token for the tab.
    let (x, y) = at(2, 0);
    mouse(&el, "click", "MouseEvent", x, y);
    settle("world chosen", || speech.token.get_untracked() == Some(2)).await;
    settle("the cell clicked", || {
        text_of(&root, "#speech-decoder-readout") == "“world” → “<|startoftranscript|>”: 0.2000"
    })
    .await;
    mouse(&el, "mouseleave", "MouseEvent", 1.0, 1.0);
    settle("no cell", || text_of(&root, "#speech-decoder-readout").contains("Hover a cell")).await;
}

#[wasm_bindgen_test]
async fn the_encoders_self_attention_is_drawn_for_the_chosen_layer_and_head() {
    let (root, speech) = mount();
    speech.take(FIRST_ID, clip());
    settle("the encoder's map", || exists(&root, "#speech-encoder[data-cells]")).await;
    let canvas: HtmlCanvasElement = find(&root, "#speech-encoder");
    assert_eq!(canvas.get_attribute("data-cells").as_deref(), Some("5"));
    assert_eq!(canvas.get_attribute("data-block").as_deref(), Some("2"));
    assert!(root
        .text_content()
        .unwrap()
        .contains("Each cell is a block of 2 frames (40 ms) a side"));
    let layers: HtmlSelectElement = find(&root, "#speech-encoder-layer");
    let heads: HtmlSelectElement = find(&root, "#speech-encoder-head");
    assert_eq!((layers.length(), heads.length()), (2, 3));
    // Layer 2, head 3: its diagonal is 0.5 + 0.1 · 3. The square starts 44 px in and 6 px
    // down; the cell (1, 1) is read out where the pointer is.
    layers.set_value("1");
    fire(&layers, "change");
    heads.set_value("2");
    fire(&heads, "change");
    let side = canvas.get_bounding_client_rect().height() - 40.0;
    let cell = side / 5.0;
    let el: HtmlElement = canvas.clone().unchecked_into();
    mouse(&el, "mousemove", "MouseEvent", 44.0 + 1.5 * cell, 6.0 + 1.5 * cell);
    settle("the readout", || text_of(&root, "#speech-encoder-readout").contains("0.8000")).await;
    let r = text_of(&root, "#speech-encoder-readout");
    assert!(r.contains("Queries 0.04–0.08 s give keys 0.04–0.08 s 0.8000"), "{r}");
    assert!(r.contains("90.0 % of it stays on the clip"), "{r}");
    // Off the diagonal, then off the square.
    mouse(&el, "mousemove", "MouseEvent", 44.0 + 3.5 * cell, 6.0 + 1.5 * cell);
    settle("another cell", || {
        text_of(&root, "#speech-encoder-readout").contains("0.12–0.16 s 0.0250")
    })
    .await;
    mouse(&el, "mouseleave", "MouseEvent", 1.0, 1.0);
    settle("no cell", || text_of(&root, "#speech-encoder-readout").contains("Hover a cell")).await;
}

#[wasm_bindgen_test]
async fn a_clip_heard_is_drawn_and_read_out_from_its_numbers() {
    let (root, speech) = mount();
    assert!(!exists(&root, "#speech-spectrogram"), "nothing drawn before a clip");
    speech.take(FIRST_ID, clip());
    settle("the transcript", || exists(&root, "#speech-spectrogram")).await;
    assert_eq!(text_of(&root, "#speech-text"), "Hello world");
    assert!(text_of(&root, ".speech-facts").contains("10 frames of 20 ms; 3 tokens"));
    assert!(text_of(&root, ".notices").contains("A notice."));
    let tokens: Vec<String> =
        select_all(&root, ".speech-token").iter().map(|b| b.text_content().unwrap()).collect();
    assert_eq!(tokens, ["<|startoftranscript|>", " Hello", " world"]);
    // The first word's first token is chosen: its weights peak at frame 4 (0.6 × 0.8 = 0.48).
    settle("the readout", || text_of(&root, "#speech-readout").contains("“Hello”")).await;
    let r = text_of(&root, "#speech-readout");
    assert!(r.contains("peak at 0.480 on 0.08–0.10 s"), "{r}");
    assert!(r.contains("80.0% of them fall on the clip, 20.0% on the silence"), "{r}");
    let spectrogram: HtmlCanvasElement = find(&root, "#speech-spectrogram");
    assert!(spectrogram.width() > 0 && spectrogram.height() > 0);
    let heatmap: HtmlCanvasElement = find(&root, "#speech-heatmap");
    assert_eq!(heatmap.get_attribute("data-rows").as_deref(), Some("3"));
    assert_eq!(heatmap.get_attribute("data-cols").as_deref(), Some("10"));
    // Another token, then one head: the readout follows, with that head's padding share.
    find::<HtmlElement>(&root, ".speech-token:nth-child(3)").click();
    settle("world", || text_of(&root, "#speech-readout").contains("“world”")).await;
    assert!(text_of(&root, "#speech-readout").contains("peak at 0.570 on 0.14–0.16 s"));
    let select: HtmlSelectElement = find(&root, "#speech-head");
    assert_eq!(select.length(), 5, "the alignment heads' mean and four heads");
    select.set_value("0-1");
    fire(&select, "change");
    settle("head 2", || text_of(&root, ".speech-caption").contains("decoder layer 1, head 2"))
        .await;
    let r = text_of(&root, "#speech-readout");
    assert!(r.contains("on 0.18–0.20 s") && r.contains("5.0% on the silence"), "{r}");
    assert!(select.inner_text().contains("Layer 2 · head 2 ★"));
}

#[wasm_bindgen_test]
async fn replies_to_an_older_clip_and_failures_of_others_are_dropped() {
    let (root, speech) = mount();
    speech.take(FIRST_ID + 5, clip());
    sleep_ms(50).await;
    assert!(!exists(&root, "#speech-text"), "a reply to a clip not asked for is dropped");
    assert!(speech.owns(FIRST_ID + 1) && !speech.owns(3));
    speech.failed(FIRST_ID, "Whisper could not hear it".into());
    settle("the message", || text_of(&root, "#speech-status").contains("could not hear")).await;
    assert!(find::<HtmlElement>(&root, "#speech-status").class_list().contains("error"));
}

/// A step the worker could send for "Hello" (token 1) through layer 1, head 1: d_k = 5, the
/// clip's six strongest frames of ten, the padding's share and z.
fn fake_step(layer: usize, head: usize, token: usize) -> SpeechStep {
    let frame = |frame: usize, score: f32, weight: f32| StepFrame {
        frame,
        k: vec![0.5, -1.25, 2.0, 0.0, 3.5],
        score,
        scaled: score * 0.125,
        weight,
    };
    SpeechStep {
        layer,
        head,
        token,
        text: "ĠHello".into(),
        q: vec![1.5, -0.25, 0.75, 2.0, -3.0],
        scale: 0.125,
        frames: 10,
        keys: 1_500,
        top: vec![
            frame(4, 24.0, 0.48),
            frame(5, 21.5, 0.32),
            frame(0, 8.0, 0.05),
            frame(9, 7.5, 0.04),
            frame(2, 6.0, 0.03),
            frame(7, 5.5, 0.02),
        ],
        padding: 0.2,
        clip: 0.8,
        z: vec![0.1, 0.2, -0.3, 0.4, 0.5],
    }
}

#[wasm_bindgen_test]
async fn a_step_by_step_reply_is_shown_for_the_chosen_token_and_head() {
    let (root, speech) = mount();
    speech.take(FIRST_ID, clip());
    settle("the step's panel", || exists(&root, "#speech-step")).await;
    // Asked, not answered yet (the test's engine sends nowhere).
    assert!(text_of(&root, "#speech-step").contains("Computing the step"));
    // A reply about another token is not shown as this one's.
    speech.take_step(FIRST_ID, fake_step(0, 0, 2));
    sleep_ms(30).await;
    assert!(!exists(&root, "#speech-step-table"));
    // The alignment heads' mean is chosen: the step follows its first head, layer 1, head 1.
    speech.take_step(FIRST_ID, fake_step(0, 0, 1));
    settle("the table", || exists(&root, "#speech-step-table")).await;
    let caption = text_of(&root, ".speech-step-caption");
    assert!(caption.contains("“Hello” (token 1) through decoder layer 1, head 1"), "{caption}");
    assert!(caption.contains("first of them, layer 1, head 1"), "{caption}");
    assert_eq!(text_of(&root, "#speech-step-q code"), "[1.5000, -0.2500, 0.7500, 2.0000, …]");
    assert!(text_of(&root, "#speech-step-q").contains("(5 numbers)"));
    assert!(text_of(&root, "#speech-step-table caption").contains("The 6 frames of the clip"));
    let rows: Vec<Vec<String>> = (1..=select_all(&root, "#speech-step-table tbody tr").len())
        .map(|i| texts(&root, &format!("#speech-step-table tbody tr:nth-child({i}) > *")))
        .collect();
    assert_eq!(rows.len(), 6);
    assert_eq!(
        rows[0],
        ["0.08", "[0.5000, -1.2500, 2.0000, 0.0000, …]", "24.0000", "3.0000", "0.4800"]
    );
    assert_eq!(rows[1][0], "0.10");
    assert_eq!((rows[1][2].as_str(), rows[1][3].as_str()), ("21.5000", "2.6875"));
    assert_eq!(
        rows[5],
        ["0.14", "[0.5000, -1.2500, 2.0000, 0.0000, …]", "5.5000", "0.6875", "0.0200"]
    );
    assert!(text_of(&root, "#speech-step-table thead").contains("× 1/√d_k = × 0.1250"));
    assert_eq!(
        text_of(&root, "#speech-step-padding"),
        "The clip's 10 frames take 0.8000 of the weight together; the 1490 frames of silence \
         padded after it take 0.2000."
    );
    assert_eq!(text_of(&root, "#speech-step-z code"), "[0.1000, 0.2000, -0.3000, 0.4000, …]");
    // A head chosen: the step of the mean is no longer it, until the worker answers.
    let select: HtmlSelectElement = find(&root, "#speech-head");
    select.set_value("1-0");
    fire(&select, "change");
    settle("asked again", || !exists(&root, "#speech-step-table")).await;
    speech.take_step(FIRST_ID, fake_step(1, 0, 1));
    settle("layer 2, head 1", || exists(&root, "#speech-step-table")).await;
    let caption = text_of(&root, ".speech-step-caption");
    assert!(caption.contains("decoder layer 2, head 1") && !caption.contains("first of them"));
    // A failure about the clip heard is the step's, not the tab's.
    speech.failed(FIRST_ID, "no head 9".into());
    settle("the step's error", || text_of(&root, "#speech-step").contains("no head 9")).await;
    assert!(!text_of(&root, "#speech-status").contains("no head 9"));
}

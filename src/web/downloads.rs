//! Saving exports as files: a Blob, an object URL and a clicked link. PNG is
//! the plotters SVG rasterised by the browser, so both exports look alike.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Blob, BlobPropertyBag, HtmlAnchorElement, HtmlCanvasElement, HtmlImageElement, Url};

fn blob(parts: &JsValue, mime: &str) -> Option<Blob> {
    let opts = BlobPropertyBag::new();
    opts.set_type(mime);
    Blob::new_with_str_sequence_and_options(parts, &opts).ok()
}

fn click_download(url: &str, filename: &str) {
    let Some(doc) = web_sys::window().and_then(|w| w.document()) else { return };
    let Some(a) = doc.create_element("a").ok().and_then(|e| e.dyn_into::<HtmlAnchorElement>().ok())
    else {
        return;
    };
    a.set_href(url);
    a.set_download(filename);
    a.click();
}

/// Offers `text` as a file named `filename`.
pub fn save(filename: &str, mime: &str, text: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    if let Some(b) = blob(&parts, mime) {
        if let Ok(url) = Url::create_object_url_with_blob(&b) {
            click_download(&url, filename);
            let _ = Url::revoke_object_url(&url);
        }
    }
}

/// Draws `svg` on a canvas at twice its size and offers it as PNG.
pub fn svg_to_png(filename: &'static str, svg: &str) {
    let parts = js_sys::Array::of1(&JsValue::from_str(svg));
    let Some(b) = blob(&parts, "image/svg+xml") else { return };
    let Ok(url) = Url::create_object_url_with_blob(&b) else { return };
    let Ok(img) = HtmlImageElement::new() else { return };
    let img2 = img.clone();
    let url2 = url.clone();
    let onload = Closure::once_into_js(move || {
        let _ = Url::revoke_object_url(&url2);
        let Some(canvas) = web_sys::window()
            .and_then(|w| w.document())
            .and_then(|d| d.create_element("canvas").ok())
            .and_then(|c| c.dyn_into::<HtmlCanvasElement>().ok())
        else {
            return;
        };
        let (w, h) = (img2.natural_width() * 2, img2.natural_height() * 2);
        canvas.set_width(w);
        canvas.set_height(h);
        let Some(ctx) = canvas
            .get_context("2d")
            .ok()
            .flatten()
            .and_then(|c| c.dyn_into::<web_sys::CanvasRenderingContext2d>().ok())
        else {
            return;
        };
        ctx.set_fill_style_str("#fff");
        ctx.fill_rect(0.0, 0.0, w as f64, h as f64);
        let _ = ctx
            .draw_image_with_html_image_element_and_dw_and_dh(&img2, 0.0, 0.0, w as f64, h as f64);
        if let Ok(data_url) = canvas.to_data_url_with_type("image/png") {
            click_download(&data_url, filename);
        }
    });
    img.set_onload(Some(onload.unchecked_ref()));
    img.set_src(&url);
}

//! The title-match page mounted in a real DOM: typing updates the score.
#![cfg(target_arch = "wasm32")]

use citegate_web::pages::title_match::TitleMatchPage;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{Event, EventInit, HtmlInputElement};

wasm_bindgen_test_configure!(run_in_browser);

fn input(id: &str, value: &str) {
    let doc = web_sys::window().unwrap().document().unwrap();
    let el: HtmlInputElement = doc.get_element_by_id(id).unwrap().dyn_into().unwrap();
    el.set_value(value);
    let init = EventInit::new();
    init.set_bubbles(true);
    el.dispatch_event(&Event::new_with_event_init_dict("input", &init).unwrap())
        .unwrap();
}

fn text(id: &str) -> String {
    let doc = web_sys::window().unwrap().document().unwrap();
    doc.get_element_by_id(id)
        .unwrap()
        .text_content()
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn typing_two_titles_shows_score_verdict_and_normalized_forms() {
    leptos::mount::mount_to_body(TitleMatchPage);
    input(
        "candidate",
        "BERT: Pre-training of Deep Bidirectional Transformers",
    );
    input(
        "found",
        "BERT - pre-training of deep bidirectional transformers.",
    );
    // Effects run in a microtask after the event.
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&wasm_bindgen::JsValue::NULL))
        .await
        .unwrap();
    assert_eq!(text("score"), "100");
    assert_eq!(text("verdict"), "PASS");
    assert_eq!(
        text("norm-candidate"),
        "bert pre training of deep bidirectional transformers"
    );

    input("found", "Deep Residual Learning for Image Recognition");
    wasm_bindgen_futures::JsFuture::from(js_sys::Promise::resolve(&wasm_bindgen::JsValue::NULL))
        .await
        .unwrap();
    assert_eq!(text("verdict"), "FAIL");
    let score: i64 = text("score").parse().unwrap();
    assert_eq!(
        score,
        citegate_core::title::score(
            "BERT: Pre-training of Deep Bidirectional Transformers",
            "Deep Residual Learning for Image Recognition",
            false,
        )
    );
}

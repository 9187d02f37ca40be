//! One streamed request to a language model, in the browser.
//!
//! The core builds the request (`write::provider::request`) and reads the
//! stream (`write::provider::Stream`); this module only posts the body with
//! `fetch` and feeds the response body's chunks to the core as they arrive,
//! so the page can show the answer growing. The abort signal cancels both
//! the request and the body read.

use citegate_core::write::provider::{
    error_from_response, Api, Failure, HttpRequest, ProviderError, Stream,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;

fn stream_error(message: String) -> ProviderError {
    ProviderError {
        failure: Failure::Stream,
        status: None,
        message,
    }
}

/// Sends `req` and streams the answer; `on_text` gets each piece of text.
pub async fn ask(
    req: &HttpRequest,
    api: Api,
    key: &str,
    signal: &web_sys::AbortSignal,
    mut on_text: impl FnMut(&str),
) -> Result<String, ProviderError> {
    use gloo_net::http::{Method, RequestBuilder};
    let cancelled = || stream_error("cancelled; the rounds so far are kept".into());
    let mut builder = RequestBuilder::new(&req.url)
        .method(Method::POST)
        .abort_signal(Some(signal));
    for (k, v) in &req.headers {
        builder = builder.header(k, v);
    }
    let built = builder
        .body(req.body.as_str())
        .map_err(|e| stream_error(e.to_string().to_lowercase()))?;
    let resp = built.send().await.map_err(|e| {
        if signal.aborted() {
            cancelled()
        } else {
            stream_error(format!(
                "cannot reach the model endpoint {} ({}): the network, the endpoint's CORS settings or this page's security policy refused it",
                req.url,
                e.to_string().to_lowercase()
            ))
        }
    })?;
    let status = resp.status();
    if status >= 400 {
        let body = resp.text().await.unwrap_or_default();
        return Err(error_from_response(api, status, &body, key));
    }
    let mut stream = Stream::new(api, key);
    let Some(body) = resp.body() else {
        let text = resp.text().await.unwrap_or_default();
        stream.push(text.as_bytes())?;
        return stream.finish();
    };
    let reader: web_sys::ReadableStreamDefaultReader = body.get_reader().unchecked_into();
    loop {
        let chunk = JsFuture::from(reader.read()).await.map_err(|_| {
            if signal.aborted() {
                cancelled()
            } else {
                stream_error("the answer stream broke off; ask again".into())
            }
        })?;
        let done = js_sys::Reflect::get(&chunk, &"done".into())
            .ok()
            .and_then(|v| v.as_bool())
            .unwrap_or(true);
        if done {
            break;
        }
        let value = js_sys::Reflect::get(&chunk, &"value".into()).unwrap_or_default();
        let bytes = js_sys::Uint8Array::new(&value).to_vec();
        let added = stream.push(&bytes)?;
        if !added.is_empty() {
            on_text(&added);
        }
    }
    stream.finish()
}

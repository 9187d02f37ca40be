//! The start module (`split`): what index.html loads first.
fn main() {
    console_error_panic_hook::set_once();
    citegate_web::split::start();
}

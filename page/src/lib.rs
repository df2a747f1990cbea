//! The page's wasm module: the library's `web` module, whose entry points
//! (`start` and the exports the tests call) it links into one cdylib. Its
//! Cargo.toml says why this crate exists apart from the library.

#[cfg(target_arch = "wasm32")]
pub use retry_playground::web;

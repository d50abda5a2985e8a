//! The search's clock: `std::time::Instant` everywhere it works, and a wasm-safe
//! replacement on `wasm32-unknown-unknown`, where `Instant::now()` panics (there is no
//! clock without the host's help).
//!
//! In the browser build (crates/bao-wasm) the host provides the clock: the module imports
//! `env.bao_now_ms() -> f64`, milliseconds from any fixed origin (`performance.now()` in a
//! Web Worker). The playing levels use depth and node budgets, never time (docs/levels.md),
//! so the clock only matters for time-limited searches and for the reported search time.

#[cfg(not(all(target_arch = "wasm32", target_os = "unknown")))]
pub use std::time::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
pub use wasm::Instant;

#[cfg(all(target_arch = "wasm32", target_os = "unknown"))]
mod wasm {
    use std::time::Duration;

    #[link(wasm_import_module = "env")]
    extern "C" {
        /// Milliseconds since a fixed origin, from the host (never decreasing).
        fn bao_now_ms() -> f64;
    }

    /// A point in time read from the host's clock (the subset of `std::time::Instant` the
    /// search uses).
    #[derive(Clone, Copy, Debug, PartialEq, PartialOrd)]
    pub struct Instant(f64);

    impl Instant {
        /// Now.
        pub fn now() -> Instant {
            // SAFETY: an imported host function without arguments or memory access.
            Instant(unsafe { bao_now_ms() })
        }

        /// Time since `self` (zero if the host's clock went back).
        pub fn elapsed(&self) -> Duration {
            let ms = (Instant::now().0 - self.0).max(0.0);
            Duration::from_secs_f64(ms / 1000.0)
        }
    }
}

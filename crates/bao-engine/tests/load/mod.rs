//! CPU-bound processes beside a test, to check behaviour under load; shared by
//! bao-engine's clock.rs and bao-cli's engine_load.rs (there through `#[path]`).

use std::process::{Child, Command, Stdio};
use std::sync::{Mutex, MutexGuard};

/// Held by the live [`Load`] of a test binary: the loaded tests of one binary run one at a
/// time, so each has the load it asks for beside it, not the sum of every test's (three tests
/// of two processes each, with the two the test suite is checked beside, once made ten
/// processes on two cores, past what a clock with a 50 ms increment can absorb).
static ONE_AT_A_TIME: Mutex<()> = Mutex::new(());

/// CPU-bound processes beside the test (bounded by `timeout`, killed when dropped).
pub struct Load(Vec<Child>, #[allow(dead_code)] MutexGuard<'static, ()>);

impl Load {
    /// Waits until no other test of this binary runs under load, then starts `n` processes.
    pub fn start(n: usize) -> Load {
        // A test that failed under load poisons the lock; the next one may still run.
        let turn = ONE_AT_A_TIME.lock().unwrap_or_else(|e| e.into_inner());
        Load(
            (0..n)
                .map(|_| {
                    Command::new("timeout")
                        .args(["300", "sh", "-c", "while :; do :; done"])
                        .stdin(Stdio::null())
                        .stdout(Stdio::null())
                        .stderr(Stdio::null())
                        .spawn()
                        .expect("sh and timeout")
                })
                .collect(),
            turn,
        )
    }
}

impl Drop for Load {
    fn drop(&mut self) {
        // SIGTERM, which `timeout` passes on to its child (SIGKILL would orphan the loop).
        for c in &mut self.0 {
            let _ = Command::new("kill")
                .args(["-TERM", &c.id().to_string()])
                .status();
            let _ = c.wait();
        }
    }
}

//! CPU-bound processes beside a test, to check behaviour under load; shared by
//! bao-engine's clock.rs and bao-cli's engine_load.rs (there through `#[path]`).

use std::process::{Child, Command, Stdio};

/// CPU-bound processes beside the test (bounded by `timeout`, killed when dropped).
pub struct Load(Vec<Child>);

impl Load {
    pub fn start(n: usize) -> Load {
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

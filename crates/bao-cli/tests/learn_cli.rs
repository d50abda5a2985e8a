//! `bao learn` through a pipe (docs/learn.md): the solutions of the first kiswahili lesson
//! earn three stars in both languages, with the lesson's own catalog texts; a wrong move
//! and the words (hint, moves, skip) answer in the learner's language; bad arguments are
//! refused before any lesson starts.

use bao_learn::course;
use bao_rules::Variant;
use std::io::Write;
use std::process::{Command, Stdio};

/// Runs `bao learn ARGS` with `input` on standard input; (status, stdout, stderr).
fn learn(args: &[&str], input: &str) -> (Option<i32>, String, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_bao"))
        .arg("learn")
        .args(args)
        .env("NO_COLOR", "1")
        .env_remove("LANG")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(input.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The plies the learner types for the first lesson: each step's first solution line, the
/// learner's moves only (the replies are the program's).
fn first_lesson_input() -> (String, usize) {
    let c = course(Variant::Kiswahili);
    let lesson = &c.lessons[0];
    let mut input = String::new();
    for step in &lesson.steps {
        for m in step.solutions[0].split_whitespace() {
            input.push_str(m);
            input.push('\n');
        }
    }
    input.push_str("quit\n");
    (input, lesson.steps.len())
}

/// The catalog text of `key` with the web markup dropped, its first words.
fn catalog_start(lang: &str, key: &str) -> String {
    let path = format!(
        "{}/../bao-server/web/i18n/{lang}/learn.json",
        env!("CARGO_MANIFEST_DIR")
    );
    let cat: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let text = cat[key].as_str().unwrap();
    let plain: String = text
        .split('<')
        .map(|p| p.split_once('>').map_or(p, |(_, r)| r))
        .collect();
    plain
        .split_whitespace()
        .take(4)
        .collect::<Vec<_>>()
        .join(" ")
}

#[test]
fn the_first_lesson_through_a_pipe_earns_three_stars_in_both_languages() {
    let (input, steps) = first_lesson_input();
    let c = course(Variant::Kiswahili);
    let lesson = &c.lessons[0];
    for (lang, three, lesson_word, total) in [
        ("en", "★★★ 3 stars", "Lesson 1/", "Stars earned:"),
        ("sw", "★★★ nyota 3", "Somo 1/", "Nyota ulizopata:"),
    ] {
        let (code, out, err) = learn(&["kiswahili", "--lang", lang], &input);
        assert_eq!(code, Some(0), "{err}\n{out}");
        assert_eq!(out.matches(three).count(), steps, "{lang}:\n{out}");
        assert!(out.contains(lesson_word), "{out}");
        assert!(out.contains(&format!("{total} {}/", 3 * steps)), "{out}");
        assert!(
            out.contains(&catalog_start(lang, &lesson.title_key)),
            "{lang} title:\n{out}"
        );
        for step in &lesson.steps {
            assert!(
                out.contains(&catalog_start(lang, &step.text_key)),
                "{lang} {}:\n{out}",
                step.text_key
            );
        }
        // No web markup reaches the terminal.
        assert!(!out.contains("<span"), "{out}");
    }
}

#[test]
fn wrong_moves_hints_and_words_answer_in_the_learners_language() {
    let c = course(Variant::Kiswahili);
    let step = &c.lessons[0].steps[0];
    let hint = catalog_start("sw", &step.hints[0]);
    let (code, out, err) = learn(&["--lang", "sw"], "xyz\ndokezo\nzamu\nruka\ntoka\n");
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("xyz si zamu"), "{out}");
    assert!(out.contains(&format!("Dokezo: {hint}")), "{out}");
    assert!(out.contains("Zamu halali:"), "{out}");
    assert!(out.contains("Hatua 2/"), "{out}");
    // A legal move that misses the goal: the step starts again, no stars.
    let (pos, rules) = step.start().unwrap();
    let wrong = bao_rules::legal_moves(&pos, &rules)
        .iter()
        .map(|m| m.mv.to_string())
        .find(|m| !step.solutions.contains(m))
        .unwrap();
    let (code, out, _) = learn(&["--lang", "en"], &format!("{wrong}\nquit\n"));
    assert_eq!(code, Some(0));
    assert!(out.contains("Not yet"), "{out}");
    assert!(!out.contains('★'), "{out}");
    assert!(out.contains("Stars earned: 0/0."), "{out}");
}

#[test]
fn another_game_and_lesson_and_bad_arguments() {
    let c = course(Variant::Kimasai);
    let step = &c.lessons[1].steps[0];
    let (code, out, err) = learn(
        &["kimasai", "--lesson", "2", "--lang", "en"],
        &format!(
            "{}\nquit\n",
            step.solutions[0].split_whitespace().next().unwrap()
        ),
    );
    assert_eq!(code, Some(0), "{err}");
    assert!(out.contains("Lesson 2/"), "{out}");
    assert!(out.contains("reserve"), "{out}");
    assert!(out.contains("★★★ 3 stars"), "{out}");
    for (args, what) in [
        (&["chess"][..], "kiswahili, kete or kimasai"),
        (&["--lang", "fr"][..], "sw or en"),
        (&["--lesson", "0"][..], "lessons 1 to"),
        (&["kete", "--lesson", "99"][..], "lessons 1 to"),
    ] {
        let (code, out, err) = learn(args, "");
        assert_eq!(code, Some(2), "{args:?}: {out}");
        assert!(
            err.starts_with("error: usage: ") && err.contains(what),
            "{err}"
        );
    }
    let (code, out, _) = learn(&["--help"], "");
    assert_eq!(code, Some(0));
    assert!(out.contains("Examples:") && out.contains("--lang"), "{out}");
}

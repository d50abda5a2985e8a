// What the puzzle browser tests do alike (docs/api.md "Puzzles").

/** Plays `move` on the puzzles page as a player does: its pit tapped, then (if offered) the
 * exact move's button; waits for the choice or the page's verdict, never for a time. */
export async function play(page, move) {
  await page.locator(`#board g.pit.legal[data-pit="${move.slice(0, 2)}"]`).click();
  await page.waitForFunction(
    (m) => document.querySelector(`#chooser button[data-move="${m}"]`) || document.querySelector('#feedback').textContent,
    move,
  );
  const choice = page.locator(`#chooser button[data-move="${move}"]`);
  if (await choice.count()) await choice.click();
}

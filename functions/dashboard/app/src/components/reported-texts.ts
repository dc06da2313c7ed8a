/**
 * The texts an editor reported through onChange that its page has not rendered back yet. React
 * may finish a render it began before the last keystroke, so the `value` a page hands back can be
 * one of these, behind the typing; taking it as a value set from outside would undo the keystrokes
 * typed since (seen on a loaded machine: the letter typed after an Enter disappeared).
 */
export class ReportedTexts {
  private texts: string[] = [];

  report(text: string): void {
    this.texts.push(text);
  }

  /** Whether `value`, rendered while the editor holds `current`, is a text from outside (a template loaded, a reset). */
  isFromOutside(value: string, current: string): boolean {
    const behind = value === current ? -1 : this.texts.indexOf(value);
    this.texts = behind >= 0 ? this.texts.slice(behind + 1) : [];
    return value !== current && behind < 0;
  }
}

import { autocompletion, completionKeymap, type CompletionContext, type CompletionResult } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { html } from '@codemirror/lang-html';
import { markdown } from '@codemirror/lang-markdown';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { Compartment, EditorState } from '@codemirror/state';
import { drawSelection, EditorView, highlightActiveLine, keymap, lineNumbers, placeholder as placeholderText } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { useEffect, useRef } from 'react';
import { ReportedTexts } from './reported-texts';

export type EditorLanguage = 'html' | 'markdown' | 'text';

export interface LineError {
  line?: number | null | undefined;
  message: string;
}

export interface CodeEditorProps {
  value: string;
  onChange: (value: string) => void;
  language: EditorLanguage;
  /** The editor's accessible name. */
  label: string;
  /** The `{{variables}}` offered as you type after `{{`. */
  variables: readonly string[];
  /** Errors shown at their line (INVALID_TEMPLATE's `line`, 1-based). */
  errors?: readonly LineError[];
  placeholder?: string;
}

/** Tags are not closed as you type: what you type is what the template says. */
const languageOf = (language: EditorLanguage) => (language === 'html' ? html({ autoCloseTags: false }) : language === 'markdown' ? markdown() : []);

/** `{{` then a partial name: every known variable that starts with it. */
const mustacheCompletion = (variables: () => readonly string[]) => (context: CompletionContext): CompletionResult | null => {
  const word = context.matchBefore(/\{\{\{?\s*[\w.]*$/);
  if (!word) return null;
  const start = word.text.match(/^\{\{\{?\s*/)![0].length;
  return {
    from: word.from + start,
    options: variables().map((name) => ({ label: name, type: 'variable', apply: word.text.startsWith('{{{') ? name : `${name}}}` })),
    validFor: /^[\w.]*$/,
  };
};

/** Syntax colours that keep 4.5:1 contrast on the editor's white and its active line (WCAG AA). */
const highlighting = HighlightStyle.define([
  { tag: [tags.tagName, tags.keyword, tags.heading], color: '#1e40af' },
  { tag: tags.heading, fontWeight: '700' },
  { tag: [tags.attributeName, tags.propertyName], color: '#7c2d12' },
  { tag: [tags.string, tags.attributeValue, tags.url], color: '#86198f' },
  { tag: [tags.comment, tags.meta, tags.processingInstruction, tags.angleBracket], color: '#4b5563' },
  { tag: tags.link, color: '#1e40af', textDecoration: 'underline' },
  { tag: tags.emphasis, fontStyle: 'italic' },
  { tag: tags.strong, fontWeight: '700' },
  { tag: tags.invalid, color: '#b42318' },
]);

const theme = EditorView.theme({
  '&': { border: '1px solid #c9ced6', borderRadius: '6px', background: '#fff', fontSize: '0.875rem' },
  '&.cm-focused': { outline: '2px solid #1d4ed8', outlineOffset: '1px' },
  '.cm-scroller': { fontFamily: 'ui-monospace, SFMono-Regular, Menlo, monospace', minHeight: '12rem', maxHeight: '32rem' },
  '.cm-content': { minHeight: '12rem' },
  '.cm-gutters': { background: '#f6f7f9', color: '#4b5563', borderRight: '1px solid #e3e6ea' },
  '.cm-activeLine': { background: '#f1f5fd' },
  '.cm-activeLineGutter': { background: '#e5ecf9' },
});

/**
 * CodeMirror 6, mounted in a shadow root. The dashboard's CSP allows no inline <style> element
 * (style-src 'self'); in a shadow root CodeMirror puts its styles in a constructable stylesheet
 * (adoptedStyleSheets), which a CSP does not govern, and sets element styles through the CSSOM
 * only (functions/dashboard/README.md, "Style policy"). Loaded lazily: the default export is the
 * editor, in its own chunk.
 */
export default function CodeEditor({ value, onChange, language, label, variables, errors = [], placeholder }: CodeEditorProps) {
  const host = useRef<HTMLDivElement>(null);
  const view = useRef<EditorView | null>(null);
  const languageSlot = useRef(new Compartment());
  const latest = useRef({ onChange, variables });
  latest.current = { onChange, variables };
  const reported = useRef(new ReportedTexts());

  useEffect(() => {
    const element = host.current!;
    const root = element.shadowRoot ?? element.attachShadow({ mode: 'open' });
    const parent = document.createElement('div');
    root.replaceChildren(parent);
    const editor = new EditorView({
      root,
      parent,
      state: EditorState.create({
        doc: value,
        extensions: [
          lineNumbers(),
          history(),
          drawSelection(),
          highlightActiveLine(),
          EditorView.lineWrapping,
          syntaxHighlighting(highlighting),
          languageSlot.current.of(languageOf(language)),
          autocompletion({ override: [mustacheCompletion(() => latest.current.variables)], activateOnTyping: true }),
          lintGutter(),
          keymap.of([...defaultKeymap, ...historyKeymap, ...completionKeymap]),
          EditorView.contentAttributes.of({ 'aria-label': label, 'aria-multiline': 'true' }),
          EditorView.updateListener.of((update) => {
            if (!update.docChanged) return;
            const text = update.state.doc.toString();
            reported.current.report(text);
            latest.current.onChange(text);
          }),
          placeholder ? placeholderText(placeholder) : [],
          theme,
        ],
      }),
    });
    view.current = editor;
    return () => {
      editor.destroy();
      view.current = null;
    };
    // The editor is made once; value, language and errors reach it through the effects below.
  }, []);

  // A value set from outside (a template loaded, a reset) replaces the document; an earlier text
  // of the editor's own, rendered late, does not.
  useEffect(() => {
    const editor = view.current;
    if (editor && reported.current.isFromOutside(value, editor.state.doc.toString())) editor.dispatch({ changes: { from: 0, to: editor.state.doc.length, insert: value } });
  }, [value]);

  useEffect(() => {
    view.current?.dispatch({ effects: languageSlot.current.reconfigure(languageOf(language)) });
  }, [language]);

  useEffect(() => {
    const editor = view.current;
    if (!editor) return;
    const doc = editor.state.doc;
    const diagnostics: Diagnostic[] = errors.map((error) => {
      const line = doc.line(Math.min(Math.max(1, error.line ?? 1), doc.lines));
      return { from: line.from, to: line.to, severity: 'error', message: error.message };
    });
    editor.dispatch(setDiagnostics(editor.state, diagnostics));
  }, [errors]);

  return <div ref={host} className="code-editor" />;
}

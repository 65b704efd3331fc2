/** The hosted form's only stylesheet, served from our origin (no inline styles: the CSP forbids them). */
export const FORM_CSS = `
:root { --accent: #1f5fd1; }
*, *::before, *::after { box-sizing: border-box; }
html { -webkit-text-size-adjust: 100%; }
body {
  margin: 0; padding: 1.5rem 1rem 3rem; background: #f4f5f7; color: #1d2330;
  font: 16px/1.5 system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, sans-serif;
}
main {
  max-width: 34rem; margin: 0 auto; background: #fff; border: 1px solid #dde1e7; border-radius: 12px;
  padding: 1.75rem 1.5rem 2rem; box-shadow: 0 1px 3px rgba(16, 24, 40, .06);
}
h1 { font-size: 1.5rem; line-height: 1.25; margin: 0 0 .5rem; overflow-wrap: anywhere; }
h2 { font-size: 1.25rem; margin: 0 0 .5rem; }
p { margin: 0 0 1rem; }
main > :last-child, .thanks > :last-child { margin-bottom: 0; }
.hint { color: #4a5365; font-size: .95rem; }
.intro { white-space: pre-line; overflow-wrap: anywhere; }
.field { margin: 0 0 1.1rem; }
label { display: block; font-weight: 600; margin: 0 0 .3rem; }
.optional { font-weight: 400; color: #5b6477; }
input, textarea {
  display: block; width: 100%; font: inherit; color: inherit; background: #fff;
  border: 1px solid #9aa3b2; border-radius: 8px; padding: .6rem .75rem; min-height: 2.75rem;
}
textarea { min-height: 8rem; resize: vertical; }
input:focus, textarea:focus, button:focus { outline: 3px solid var(--accent); outline-offset: 2px; }
input:focus, textarea:focus { border-color: var(--accent); }
.help { color: #4a5365; font-size: .95rem; margin: -.1rem 0 .4rem; white-space: pre-line; }
fieldset.group { border: 0; padding: 0; min-width: 0; }
fieldset.group legend { font-weight: 600; padding: 0; margin: 0 0 .3rem; }
.choice { display: flex; align-items: flex-start; gap: .6rem; margin: 0 0 .35rem; }
.choice input {
  width: 1.25rem; height: 1.25rem; min-height: 0; margin: .15rem 0 0; flex: none; accent-color: var(--accent);
}
.choice label { font-weight: 400; margin: 0; }
fieldset[aria-invalid="true"] { border-left: 3px solid #b3261e; padding-left: .6rem; }
[aria-invalid="true"] { border-color: #b3261e; border-width: 2px; }
.field-error, .hint.error, .status.error { color: #b3261e; font-weight: 600; }
.field-error { margin: .35rem 0 0; font-size: .95rem; }
.field-error:empty { display: none; }
.hp { position: absolute; left: -10000px; top: auto; width: 1px; height: 1px; overflow: hidden; }
.bot-check { margin: 0 0 1.1rem; min-height: 1px; }
button {
  display: inline-block; width: 100%; font: inherit; font-weight: 600; color: #fff; background: var(--accent);
  border: 0; border-radius: 8px; padding: .75rem 1.25rem; min-height: 2.75rem; cursor: pointer;
}
button:hover { filter: brightness(.88); }
button[disabled] { background: #7d8aa3; cursor: progress; }
.status { margin: 1rem 0 0; min-height: 1.5em; }
.status:empty { margin: 0; min-height: 0; }
.notice {
  border-left: 4px solid #b3261e; background: #fdf2f1; padding: .75rem 1rem; border-radius: 4px; font-weight: 600;
}
.thanks h2 { color: #1b6b3a; }
.thanks:focus { outline: none; }
@media (min-width: 40rem) {
  body { padding-top: 3rem; }
  main { padding: 2.25rem 2.5rem 2.5rem; }
  button { width: auto; }
}
/* In a frame on the owner's page: no page background, no card, no space below; the frame is as tall as the form. */
.embedded body, .embedded main { background: transparent; }
.embedded body { padding: .25rem .25rem .5rem; }
.embedded main { max-width: none; border: 0; box-shadow: none; border-radius: 0; padding: .5rem; }
`;

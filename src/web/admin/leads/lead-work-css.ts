/** The lead page's assignment, follow-up and notes styles, appended to admin.css. */
export const LEAD_WORK_CSS = `
/* lead work */
.work-row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: 0 0 .5rem; }
.work-row label { margin: 0; min-width: 7.5rem; }
.work-row select, .work-row input[type="date"] {
  width: auto; display: inline-block; flex: 1 1 10rem; max-width: 16rem;
}
.filters .field.check { display: flex; gap: .45rem; align-items: center; min-height: 2.5rem; }
.filters .field.check input { width: auto; margin: 0; }
.filters .field.check label { margin: 0; }
.badge.due { background: #fff7e6; color: #7a4b00; border-color: #f0d49a; }
ul.notes { margin-top: 1rem; }
.note-text { margin: 0 0 .25rem; white-space: pre-wrap; overflow-wrap: anywhere; }
.note form.inline button { padding: .1rem .5rem; min-height: 0; font-size: .8rem; }
`;

import { addFormField } from '../../../domain/forms/add-form-field.js';
import { editFormField } from '../../../domain/forms/edit-form-field.js';
import { moveFormField } from '../../../domain/forms/move-form-field.js';
import { removeFormField } from '../../../domain/forms/remove-form-field.js';
import { setBuiltInField } from '../../../domain/forms/set-built-in-field.js';
import { setFormAccent } from '../../../domain/forms/set-form-accent.js';
import { readSourceForm } from '../../../domain/forms/source-form.js';
import { findWorkspaceSource } from '../../../domain/sources/list-sources.js';
import type { AdminRoute, WorkspaceCall } from '../admin-route.js';
import { workspacePath } from '../admin-route.js';
import { formEditorPage, type FormEditorInput } from './form-editor-pages.js';

const sourceOf = (call: WorkspaceCall) =>
  findWorkspaceSource({
    ctx: call.ctx,
    input: { sourceId: call.params.sourceId ?? '' },
  });

const editorPath = (call: WorkspaceCall, sourceId: string) =>
  workspacePath(call.workspace.workspaceId, `sources/${sourceId}/form`);

async function renderEditor(call: WorkspaceCall, status: number, extra: Omit<FormEditorInput, 'source' | 'form'> = {}) {
  const source = await sourceOf(call);
  const form = await readSourceForm(call.ctx, source.id);
  return call.render(status, {
    title: `Form · ${source.name}`,
    area: 'sources',
    body: formEditorPage(call, { source, form, ...extra }),
  });
}

/** A custom field's edit form as typed (its kind stays). */
const editedValuesOf = (call: WorkspaceCall) => ({
  label: call.body.label ?? '',
  help: call.body.help ?? '',
  options: call.body.options ?? '',
  consentText: call.body.consentText ?? '',
  required: call.body.required === '1' ? '1' : '',
});

/** A built-in field's form as typed (an unticked box sends nothing). */
const builtInValuesOf = (call: WorkspaceCall) => ({
  label: call.body.label ?? '',
  shown: call.body.shown === '1' ? '1' : '',
  required: call.body.required === '1' ? '1' : '',
});

/** The new field's form as typed. */
const fieldValuesOf = (call: WorkspaceCall) => ({ kind: call.body.kind ?? '', ...editedValuesOf(call) });

/** A source's form editor (docs/admin-app.md, "A source's form"), owner only, beside the source's own page. */
export const formEditorRoutes: AdminRoute[] = [
  {
    method: 'GET',
    path: '/w/:workspaceId/sources/:sourceId/form',
    access: 'owner',
    handler: (call) => renderEditor(call, 200),
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/fields',
    access: 'owner',
    handler: async (call) => {
      const source = await sourceOf(call);
      const values = fieldValuesOf(call);
      await addFormField({
        ctx: call.ctx,
        input: { sourceId: source.id, field: { ...values, required: values.required === '1' } },
      });
      return call.redirect(editorPath(call, source.id), 'form-field-added');
    },
    form: {
      field: 'label',
      rerender: (call, { status, errors }) =>
        renderEditor(call, status, { fieldErrors: errors, fieldValues: fieldValuesOf(call) }),
    },
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/fields/:fieldId',
    access: 'owner',
    handler: async (call) => {
      const source = await sourceOf(call);
      const fieldId = call.params.fieldId ?? '';
      const values = editedValuesOf(call);
      await editFormField({
        ctx: call.ctx,
        input: { sourceId: source.id, fieldId, field: { ...values, required: values.required === '1' } },
      });
      return call.redirect(editorPath(call, source.id), 'form-field-saved');
    },
    // A refused edit comes back in that field's row, kept open, with what was typed.
    form: {
      field: 'label',
      rerender: (call, { status, errors }) =>
        renderEditor(call, status, {
          editing: { fieldId: call.params.fieldId ?? '', errors, values: editedValuesOf(call) },
        }),
    },
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/built-in/:name',
    access: 'owner',
    handler: async (call) => {
      const source = await sourceOf(call);
      const values = builtInValuesOf(call);
      const change = { label: values.label, shown: values.shown === '1', required: values.required === '1' };
      await setBuiltInField({ ctx: call.ctx, input: { sourceId: source.id, name: call.params.name ?? '', change } });
      return call.redirect(editorPath(call, source.id), 'form-field-saved');
    },
    // A refused change comes back in that field's row, kept open, with what was typed.
    form: {
      field: 'label',
      rerender: (call, { status, errors }) =>
        renderEditor(call, status, {
          editing: { fieldId: call.params.name ?? '', errors, values: builtInValuesOf(call) },
        }),
    },
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/fields/:fieldId/move',
    access: 'owner',
    handler: async (call) => {
      const source = await sourceOf(call);
      const direction = call.body.direction === 'up' ? 'up' : 'down';
      await moveFormField({
        ctx: call.ctx,
        input: { sourceId: source.id, fieldId: call.params.fieldId ?? '', direction },
      });
      return call.redirect(editorPath(call, source.id), 'form-field-moved');
    },
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/fields/:fieldId/remove',
    access: 'owner',
    handler: async (call) => {
      const source = await sourceOf(call);
      await removeFormField({ ctx: call.ctx, input: { sourceId: source.id, fieldId: call.params.fieldId ?? '' } });
      return call.redirect(editorPath(call, source.id), 'form-field-removed');
    },
  },
  {
    method: 'POST',
    path: '/w/:workspaceId/sources/:sourceId/form/look',
    access: 'owner',
    handler: async (call) => {
      const source = await sourceOf(call);
      await setFormAccent({ ctx: call.ctx, input: { sourceId: source.id, accent: call.body.accent ?? '' } });
      return call.redirect(editorPath(call, source.id), 'form-look-saved');
    },
    form: {
      field: 'accent',
      rerender: (call, { status, errors }) =>
        renderEditor(call, status, { accentErrors: errors, accentValue: call.body.accent ?? '' }),
    },
  },
];

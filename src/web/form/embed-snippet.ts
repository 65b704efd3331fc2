/**
 * The embed snippet shown on a source's page (docs/admin-app.md, "Embedding"): an iframe that works on its
 * own, and a few lines of script that let it fit. The script and the form's script (form-client.ts) speak by
 * postMessage, each checking the other's origin:
 *   form → page  `hello` (carries nothing, sent to any origin): "tell me where I am";
 *   page → form  `page` with the page's address, sent only to the form's origin; the form keeps it only when the
 *                address is of the origin that sent it, and from then on talks to that origin only;
 *   form → page  `height`, whenever the form's height changes (the thank-you is short: the frame shrinks with it).
 */
export const EMBED_MESSAGES = { hello: 'leadscan:hello', page: 'leadscan:page', height: 'leadscan:height' } as const;

/** The frame's height before the script has measured the form, and the most it lets a form make it. */
const START_HEIGHT = 760;
const MAX_HEIGHT = 10000;

const attr = (text: string) => text.replaceAll('&', '&amp;').replaceAll('"', '&quot;').replaceAll('<', '&lt;');

export function embedSnippet(input: { formUrl: string; title: string; token: string }): string {
  const id = `leadscan-form-${input.token.slice(0, 8)}`;
  const origin = new URL(input.formUrl).origin;
  const m = EMBED_MESSAGES;
  return (
    `<iframe id="${id}" src="${attr(input.formUrl)}" title="${attr(input.title)}" width="100%" ` +
    `height="${START_HEIGHT}" style="border:0;width:100%;max-width:40rem" loading="lazy"></iframe>
<script>
(function () {
  var frame = document.getElementById(${JSON.stringify(id)}), origin = ${JSON.stringify(origin)};
  function tell() {
    if (frame.contentWindow) frame.contentWindow.postMessage({ type: ${JSON.stringify(m.page)}, url: ` +
    `location.href.split('#')[0] }, origin);
  }
  window.addEventListener('message', function (e) {
    if (e.origin !== origin || e.source !== frame.contentWindow || !e.data) return;
    if (e.data.type === ${JSON.stringify(m.hello)}) tell();
    if (e.data.type === ${JSON.stringify(m.height)} && e.data.height > 0) frame.style.height = ` +
    `Math.min(e.data.height, ${MAX_HEIGHT}) + 'px';
  });
  frame.addEventListener('load', tell);
})();
</script>`
  );
}

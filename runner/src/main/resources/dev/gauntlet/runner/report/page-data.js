// The data HtmlPage.java embedded in a page: JSON, or gzipped and base64-encoded above its size limit, decoded with the
// browser's DecompressionStream. Shared by report.js and site.js.
window.gauntletPageData = async function () {
  'use strict';
  const script = document.getElementById('page-data');
  const text = script.textContent.trim();
  if (script.type === 'application/gzip-base64') {
    const bytes = Uint8Array.from(atob(text), c => c.charCodeAt(0));
    const stream = new Blob([bytes]).stream().pipeThrough(new DecompressionStream('gzip'));
    return JSON.parse(await new Response(stream).text());
  }
  return JSON.parse(text);
};

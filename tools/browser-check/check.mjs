// Opens every page of a built book offline in headless Chromium (Debian's /usr/bin/chromium)
// at 1400 px (a laptop) and 400 px (a phone) and checks what a reader sees:
//
// - math typeset: no raw TeX, no MathJax error;
// - no display equation clipped: every part of it is inside the column or can be scrolled into
//   view (a box with hidden overflow, or content left of a scroll box's start, hides it for good);
// - tables rendered (no Markdown pipes left), images loaded, every chapter has its claims table;
// - a claims table fits the column (it never needs sideways scrolling, on a phone either);
// - no page is wider than the window, and the text column does not overflow;
// - figure text: a figure shown so small that its smallest text is under 9 CSS px must link to
//   its full-size file;
// - a clean console: no JavaScript error, no failed load, no request outside the book.
//
// It saves a screenshot of the top of every page at both widths.
//
//   node tools/browser-check/check.mjs <html folder> <screenshot folder>
//
// Exits non-zero if any page fails a check; prints one line per page and a summary by problem.
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

// The figures' smallest text and resolution, as gendyn.book.plotting.STYLE sets them
// (legend.fontsize, figure.dpi: the inline PNG's pixels); tests/test_book.py checks they agree.
const SMALLEST_FONT_PT = 8;
const FIGURE_DPI = 110;
const MIN_TEXT_PX = 9;
const WIDTHS = [1400, 400];

const [html, shots] = process.argv.slice(2);
if (!html || !fs.existsSync(path.join(html, "index.html"))) {
  console.error("usage: check.mjs <built html folder> <screenshot folder>");
  process.exit(2);
}
fs.mkdirSync(shots, { recursive: true });

function pages(dir) {
  const out = [];
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory() && !entry.name.startsWith("_")) out.push(...pages(full));
    else if (entry.name.endsWith(".html")
             && !/http-equiv="Refresh"/i.test(fs.readFileSync(full, "utf8").slice(0, 500))) out.push(full); // not redirects
  }
  return out;
}

// Runs in the page: every measurement the checks need.
function measure({ smallestFontPx, minTextPx }) {
  const article = document.querySelector(".bd-article") || document.body;
  const text = article.innerText;
  const column = document.querySelector(".bd-article-container") || article;
  const display = [...document.querySelectorAll("mjx-container[display='true']")];

  // The part of a display equation that no scrolling brings into view.
  function clipped(eq) {
    let left = Infinity, right = -Infinity;
    for (const el of [eq, ...eq.querySelectorAll("*")]) {
      const r = el.getBoundingClientRect();
      if (r.width > 0) { left = Math.min(left, r.left); right = Math.max(right, r.right); }
    }
    if (!isFinite(left)) return 0;
    let hidden = 0;
    for (let a = eq; a && a !== document.body; a = a.parentElement) {
      const style = getComputedStyle(a);
      if (style.overflowX !== "visible") {
        const box = a.getBoundingClientRect();
        if (style.overflowX === "auto" || style.overflowX === "scroll") {
          // what lies left of where the content starts is never reachable; the rest is, by
          // scrolling: seen from outside, the equation is now this box
          hidden = Math.max(hidden, box.left - a.scrollLeft - left);
        } else {
          hidden = Math.max(hidden, box.left - left, right - box.right);
        }
        left = Math.max(left, box.left);
        right = Math.min(right, box.right);
      }
      if (a === article) break;
    }
    return hidden;
  }

  const figures = [...article.querySelectorAll("figure img, .cell_output img")].map((img) => {
    const link = img.closest("a[href]");
    const scale = img.naturalWidth ? img.clientWidth / img.naturalWidth : 1;
    return { src: img.src, scale, textPx: smallestFontPx * scale, link: link ? link.href : null };
  });
  const small = figures.filter((f) => f.textPx < minTextPx);

  const claimsTables = [...article.querySelectorAll("table")].filter((t) => {
    const head = [...t.querySelectorAll("thead th")].map((th) => th.textContent.trim().toLowerCase());
    return head[0] === "status" && head[1] === "claim";
  });
  const columnBox = article.getBoundingClientRect();
  const tableOverflow = claimsTables.map((t) => Math.max(t.scrollWidth - t.clientWidth,
    t.getBoundingClientRect().right - columnBox.right)).filter((d) => d > 1);

  return {
    rawTex: (text.match(/\\\(|\\\[|\$\$/g) || []).length,
    mathErrors: document.querySelectorAll("mjx-merror").length,
    typeset: document.querySelectorAll("mjx-container").length,
    tables: article.querySelectorAll("table").length,
    pipeText: (text.match(/\|\s*(status|claim)\s*\|/g) || []).length,
    images: article.querySelectorAll("img").length,
    broken: [...article.querySelectorAll("img")].filter((i) => !i.complete || i.naturalWidth === 0).length,
    columnOverflow: column.scrollWidth - column.clientWidth,
    pageOverflow: document.documentElement.scrollWidth - window.innerWidth,
    equations: display.length,
    scrolling: display.filter((d) => d.scrollWidth > d.clientWidth + 1).length,
    clipped: display.map(clipped).filter((px) => px > 1).map(Math.round),
    smallFigures: small.length,
    smallestText: figures.length ? Math.min(...figures.map((f) => f.textPx)) : null,
    smallUnlinked: small.filter((f) => !f.link).map((f) => f.src),
    smallLinks: small.filter((f) => f.link).map((f) => f.link),
    claimsTables: claimsTables.length,
    tableOverflow: tableOverflow.map(Math.round),
  };
}

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"],
});
const failures = [];
const byKind = {};
let n = 0;
for (const width of WIDTHS) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  const outside = [];
  await context.route(/^(?!file:)/, (route) => { outside.push(route.request().url()); route.abort(); }); // offline
  const page = await context.newPage();
  page.setDefaultTimeout(180000); // a loaded machine
  let messages = [];
  page.on("console", (msg) => { if (msg.type() === "error") messages.push(msg.text()); });
  page.on("pageerror", (error) => messages.push(`uncaught: ${error.message}`));
  page.on("requestfailed", (request) => {
    if (request.url().startsWith("file:")) messages.push(`failed to load ${request.url()}`);
  });
  for (const file of pages(html).sort()) {
    const rel = path.relative(html, file);
    messages = [];
    outside.length = 0;
    await page.goto(pathToFileURL(path.resolve(file)).href, { waitUntil: "load" });
    await page.evaluate(async () => {
      if (window.MathJax && window.MathJax.startup) await window.MathJax.startup.promise;
    });
    const facts = await page.evaluate(measure, {
      smallestFontPx: (SMALLEST_FONT_PT * FIGURE_DPI) / 72, minTextPx: MIN_TEXT_PX });
    const shot = path.join(shots, `${rel.replace(/[\/]/g, "__").replace(/\.html$/, "")}-${width}.png`);
    await page.screenshot({ path: shot });
    const deadLinks = facts.smallLinks.filter((href) => {
      if (!href.startsWith("file:")) return true;
      const target = fileURLToPath(href.split("#")[0]);
      return !/\.(png|svg|jpe?g|pdf)$/i.test(target) || !fs.existsSync(target);
    });
    const problems = [];
    const problem = (kind, text) => { problems.push(text); byKind[kind] = (byKind[kind] || 0) + 1; };
    if (facts.rawTex) problem("raw TeX", `${facts.rawTex} raw TeX`);
    if (facts.mathErrors) problem("MathJax error", `${facts.mathErrors} MathJax errors`);
    if (facts.pipeText) problem("untyped table", `${facts.pipeText} untyped tables`);
    if (facts.broken) problem("broken image", `${facts.broken} broken images`);
    if (facts.clipped.length) problem("clipped equation",
      `${facts.clipped.length} display equations clipped (${facts.clipped.join(", ")} px out of reach)`);
    if (facts.smallUnlinked.length) problem("small figure without link",
      `${facts.smallUnlinked.length} figures with text under ${MIN_TEXT_PX} px and no link to the full size`);
    if (deadLinks.length) problem("figure link broken", `${deadLinks.length} figure links to no image file`);
    if (facts.tableOverflow.length) problem("claims table overflows",
      `${facts.tableOverflow.length} claims tables wider than the column (${facts.tableOverflow.join(", ")} px)`);
    if (facts.pageOverflow > 1) problem("page wider than window", `page ${facts.pageOverflow} px wider than the window`);
    if (facts.columnOverflow > 1) problem("column overflows", `column overflows by ${facts.columnOverflow} px`);
    if (width === WIDTHS[0] && /generated\/.+\//.test(rel) && !facts.claimsTables) problem("no claims table", "no claims table");
    if (messages.length) problem("console error", `${messages.length} console errors: ${[...new Set(messages)].join(" | ").slice(0, 300)}`);
    if (outside.length) problem("request outside the book",
      `${outside.length} requests outside the book: ${[...new Set(outside)].join(" ").slice(0, 200)}`);
    n += 1;
    console.log(`${problems.length ? "FAIL" : "ok  "} ${width}px ${rel}: ${facts.typeset} math, ` +
      `${facts.equations} display (${facts.scrolling} scroll), ${facts.tables} tables, ${facts.images} images` +
      (facts.smallestText !== null ? ` (smallest figure text ${facts.smallestText.toFixed(1)} px, ${facts.smallFigures} under ${MIN_TEXT_PX})` : "") +
      (problems.length ? ` -- ${problems.join("; ")}` : ""));
    if (problems.length) failures.push(`${rel} @ ${width}px: ${problems.join("; ")}`);
  }
  await context.close();
}
await browser.close();
console.log(`\n${n} page views checked offline, ${failures.length} with problems; screenshots in ${shots}`);
for (const [kind, count] of Object.entries(byKind).sort()) console.log(`  ${kind}: ${count} page views`);
process.exit(failures.length ? 1 : 0);

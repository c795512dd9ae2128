// Opens every page of a built book offline in headless Chromium (Debian's /usr/bin/chromium)
// and checks what a reader sees: math typeset (no raw TeX, no MathJax error), tables and
// images present and loaded, no horizontal overflow of the text column at 1400 px; saves a
// screenshot of the top of every page at 1400 px and 400 px (a phone).
//
//   node tools/browser-check/check.mjs <html folder> <screenshot folder>
//
// Exits non-zero if any page fails a check; prints one line per page and a summary.
import { chromium } from "playwright-core";
import fs from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

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
    else if (entry.name.endsWith(".html") && !["genindex.html", "search.html"].includes(entry.name)
             && !/http-equiv="Refresh"/i.test(fs.readFileSync(full, "utf8").slice(0, 500))) out.push(full); // not redirects
  }
  return out;
}

const browser = await chromium.launch({
  executablePath: "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking", "--disable-component-update",
         "--disable-sync", "--no-first-run"],
});
const failures = [];
let n = 0;
for (const width of [1400, 400]) {
  const context = await browser.newContext({ viewport: { width, height: 900 } });
  await context.route(/^(?!file:)/, (route) => route.abort()); // offline: only the book's own files
  const page = await context.newPage();
  for (const file of pages(html).sort()) {
    const rel = path.relative(html, file);
    await page.goto(pathToFileURL(path.resolve(file)).href, { waitUntil: "load" });
    await page.evaluate(async () => {
      if (window.MathJax && window.MathJax.startup) await window.MathJax.startup.promise;
    });
    const facts = await page.evaluate(() => {
      const article = document.querySelector(".bd-article") || document.body;
      const text = article.innerText;
      const column = document.querySelector(".bd-article-container") || article;
      const display = [...document.querySelectorAll("mjx-container[display='true']")];
      return {
        rawTex: (text.match(/\\\(|\\\[|\$\$/g) || []).length,
        mathErrors: document.querySelectorAll("mjx-merror").length,
        typeset: document.querySelectorAll("mjx-container").length,
        tables: article.querySelectorAll("table").length,
        pipeText: (text.match(/\|\s*(status|claim)\s*\|/g) || []).length,
        images: article.querySelectorAll("img").length,
        broken: [...article.querySelectorAll("img")].filter((i) => !i.complete || i.naturalWidth === 0).length,
        columnOverflow: column.scrollWidth - column.clientWidth,
        wideEquations: display.filter((d) => d.scrollWidth > d.parentElement.clientWidth + 1).length,
        equations: display.length,
      };
    });
    const shot = path.join(shots, `${rel.replace(/[\/]/g, "__").replace(/\.html$/, "")}-${width}.png`);
    await page.screenshot({ path: shot });
    const problems = [];
    if (facts.rawTex) problems.push(`${facts.rawTex} raw TeX`);
    if (facts.mathErrors) problems.push(`${facts.mathErrors} MathJax errors`);
    if (facts.pipeText) problems.push(`${facts.pipeText} untyped tables`);
    if (facts.broken) problems.push(`${facts.broken} broken images`);
    if (width === 1400 && facts.columnOverflow > 1) problems.push(`column overflows by ${facts.columnOverflow} px`);
    if (width === 1400 && /generated\/.+\//.test(rel) && !facts.tables) problems.push("no claims table");
    n += 1;
    console.log(`${problems.length ? "FAIL" : "ok  "} ${width}px ${rel}: ${facts.typeset} math, ` +
      `${facts.equations} display (${facts.wideEquations} scroll), ${facts.tables} tables, ${facts.images} images` +
      (problems.length ? ` -- ${problems.join("; ")}` : ""));
    if (problems.length) failures.push(`${rel} @ ${width}px: ${problems.join("; ")}`);
  }
  await context.close();
}
await browser.close();
console.log(`\n${n} page views checked offline, ${failures.length} with problems; screenshots in ${shots}`);
process.exit(failures.length ? 1 : 0);

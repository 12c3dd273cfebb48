// Real-Chromium views of the pages c960 publishes, as a reader sees them:
// each page at 390 px (a phone) and 1366 px (a laptop), and printed on A4
// and on Letter. Fails when a page is wider than its window (something
// sticks out sideways) or a round sheet does not print on one page.
//
// node scripts/screenshots.cjs OUT NAME=FILE [NAME=FILE ...]
// (run by scripts/screenshots.sh, which builds the kits and names the pages)
const { chromium } = require("playwright-core");
const { execFileSync } = require("node:child_process");
const { mkdirSync, writeFileSync } = require("node:fs");
const { pathToFileURL } = require("node:url");

async function main() {

const [out, ...views] = process.argv.slice(2);
if (!out || views.length === 0) {
  console.error("usage: node scripts/screenshots.cjs OUT NAME=FILE [NAME=FILE ...]");
  process.exit(2);
}
mkdirSync(out, { recursive: true });
const browser = await chromium.launch({
  executablePath: process.env.CHROMIUM ?? "/usr/bin/chromium",
  args: ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--no-first-run"],
});
const problems = [];
const lines = ["| view | 390 px | 1366 px | A4 | Letter |", "|---|---|---|---|---|"];
for (const view of views) {
  const [name, file] = view.split("=");
  const url = pathToFileURL(file).href;
  const cells = [name];
  for (const width of [390, 1366]) {
    const page = await browser.newPage({ viewport: { width, height: 900 } });
    await page.goto(url);
    const [scroll, client] = await page.evaluate(() => [
      document.documentElement.scrollWidth, document.documentElement.clientWidth]);
    if (scroll > client) problems.push(`${name} at ${width} px is ${scroll} px wide`);
    const png = `${name}-${width}.png`;
    // The top of the page (a 960-row table need not be shown whole).
    const height = Math.min(await page.evaluate(() => document.documentElement.scrollHeight), 2400);
    await page.screenshot({ path: `${out}/${png}`, clip: { x: 0, y: 0, width, height } });
    cells.push(`[${scroll > client ? "too wide" : "fits"}](${png})`);
    await page.close();
  }
  for (const format of ["A4", "Letter"]) {
    const page = await browser.newPage();
    await page.goto(url);
    const pdf = `${out}/${name}-${format.toLowerCase()}.pdf`;
    await page.pdf({ path: pdf, format, printBackground: true, preferCSSPageSize: true });
    const pages = Number(/Pages:\s+(\d+)/.exec(execFileSync("pdfinfo", [pdf]).toString())[1]);
    execFileSync("pdftoppm", ["-png", "-r", "50", "-f", "1", "-l", "1", "-singlefile", pdf,
      `${out}/${name}-${format.toLowerCase()}`]);
    execFileSync("rm", [pdf]);
    if (name.includes("round") && pages !== 1) problems.push(`${name} prints on ${pages} ${format} pages`);
    cells.push(`[${pages} page${pages === 1 ? "" : "s"}](${name}-${format.toLowerCase()}.png)`);
    await page.close();
  }
  lines.push(`| ${cells.join(" | ")} |`);
}
await browser.close();
writeFileSync(`${out}/views.md`, lines.join("\n") + "\n");
console.log(lines.join("\n"));
if (problems.length) {
  console.error(problems.join("\n"));
  process.exit(1);
}
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});

// c960 report: sortable tables (click a header), a text filter for the
// index, and the organizer filters of fair.html. No libraries, no network.
"use strict";

function cellValue(row, index, type) {
  const text = row.cells[index].textContent.trim();
  if (type === "num") {
    const number = parseFloat(text.replace("%", "").replace("+", ""));
    return Number.isNaN(number) ? -Infinity : number;
  }
  return text;
}

function makeSortable(table) {
  const headers = table.tHead.rows[0].cells;
  for (let i = 0; i < headers.length; i++) {
    const header = headers[i];
    header.addEventListener("click", () => {
      const type = header.dataset.type || "text";
      const ascending = header.dataset.sorted !== "asc";
      for (const h of headers) delete h.dataset.sorted;
      header.dataset.sorted = ascending ? "asc" : "desc";
      const body = table.tBodies[0];
      const rows = Array.from(body.rows);
      rows.sort((a, b) => {
        const x = cellValue(a, i, type);
        const y = cellValue(b, i, type);
        const order = x < y ? -1 : x > y ? 1 : 0;
        return ascending ? order : -order;
      });
      for (const row of rows) body.appendChild(row);
    });
  }
}

function showCount(table) {
  const shown = document.getElementById("shown");
  if (!shown) return;
  const rows = Array.from(table.tBodies[0].rows);
  shown.textContent = rows.filter((r) => !r.hidden).length + " of " + rows.length + " positions";
}

function makeFilter(table) {
  const input = document.getElementById("filter");
  if (!input) return;
  input.addEventListener("input", () => {
    const needle = input.value.trim().toLowerCase();
    for (const row of table.tBodies[0].rows) {
      row.hidden = needle !== "" && !row.textContent.toLowerCase().includes(needle);
    }
    showCount(table);
  });
  showCount(table);
}

function makeFairFilters(table) {
  const controls = document.querySelectorAll("[data-filter]");
  const apply = () => {
    const noAttack = document.querySelector('[data-filter="no-attack"]').checked;
    const noCastle = document.querySelector('[data-filter="no-castle"]').checked;
    const maxWeak = parseInt(document.querySelector('[data-filter="max-weak"]').value, 10);
    // --not-drawish P: the round(P% of all positions) most drawish go.
    const drawish = document.querySelector('[data-filter="not-drawish"]');
    const rows = table.tBodies[0].rows;
    const percent = drawish ? parseFloat(drawish.value) || 0 : 0;
    const leftOut = Math.round((percent / 100) * rows.length);
    for (const row of rows) {
      row.hidden =
        (noAttack && row.dataset.attack !== "0") ||
        (noCastle && row.dataset.castle === "true") ||
        parseInt(row.dataset.weak, 10) > maxWeak ||
        (row.dataset.drawish !== undefined && parseInt(row.dataset.drawish, 10) <= leftOut);
    }
  };
  for (const control of controls) control.addEventListener("input", apply);
}

// fair.html: the organizer's reference of balance. Every row carries its
// rank, distance, rank interval, verdict and q-value for each reference;
// choosing one re-sorts the rows (equal distances in SP order), shows that
// reference's numbers and says what rank 1 now means and what the ranking
// is worth.
function makeReferenceChoice(table) {
  const select = document.getElementById("reference");
  if (!select) return;
  const words = document.getElementById("reference-words");
  select.addEventListener("change", () => {
    const key = select.value;
    const body = table.tBodies[0];
    const rows = Array.from(body.rows);
    const distance = (row) => {
      const d = parseFloat(row.dataset[key + "Distance"]);
      return Number.isNaN(d) ? Infinity : d;
    };
    rows.sort((a, b) => distance(a) - distance(b) || parseInt(a.dataset.sp, 10) - parseInt(b.dataset.sp, 10));
    const cells = { rank: "Rank", distance: "Shown", "rank-interval": "Interval", verdict: "Verdict", q: "Q" };
    for (const row of rows) {
      for (const [name, field] of Object.entries(cells)) {
        const cell = row.querySelector("td." + name);
        if (cell) cell.textContent = row.dataset[key + field] || "";
      }
      body.appendChild(row);
    }
    for (const header of table.tHead.rows[0].cells) delete header.dataset.sorted;
    const option = select.selectedOptions[0];
    words.textContent = option.dataset.words;
    const note = document.getElementById("reference-note");
    if (note) note.textContent = option.dataset.note || "";
  });
}

// A link such as index.html#sort=8-desc opens the table sorted by column 8,
// descending.
function sortFromHash(table) {
  const match = /sort=(\d+)(-desc)?/.exec(window.location.hash);
  if (!match) return;
  const header = table.tHead.rows[0].cells[parseInt(match[1], 10)];
  if (!header) return;
  header.click();
  if (match[2]) header.click();
}

// A position page's diagram as PNG: the inline SVG drawn on a canvas at
// twice its size (its proportions from its viewBox, legend included),
// offered as a download (no network, no extra file). data-png="clean"
// draws it without the marks and their legend, for print.
function makePngDownload(link) {
  const board = document.querySelector("svg.board");
  if (!board) return;
  const svg = board.cloneNode(true);
  const box = board.viewBox.baseVal;
  let height = box.height;
  if (link.dataset.png === "clean") {
    for (const mark of svg.querySelectorAll(".weak, .castle-target, .legend")) mark.remove();
    height = 360;
    svg.setAttribute("viewBox", "0 0 340 360");
  }
  const width = 680;
  const pixels = Math.round((width * height) / box.width);
  svg.setAttribute("width", width);
  svg.setAttribute("height", pixels);
  const image = new Image();
  image.onload = () => {
    const canvas = document.createElement("canvas");
    canvas.width = width;
    canvas.height = pixels;
    const context = canvas.getContext("2d");
    context.fillStyle = "#ffffff";
    context.fillRect(0, 0, width, pixels);
    context.drawImage(image, 0, 0, width, pixels);
    link.href = canvas.toDataURL("image/png");
    link.dataset.ready = "true";
  };
  const source = new XMLSerializer().serializeToString(svg);
  image.src = "data:image/svg+xml;charset=utf-8," + encodeURIComponent(source);
}

document.addEventListener("DOMContentLoaded", () => {
  for (const link of document.querySelectorAll("a[data-png]")) makePngDownload(link);
  for (const table of document.querySelectorAll("table.sortable")) {
    makeSortable(table);
    sortFromHash(table);
  }
  const index = document.getElementById("positions");
  if (index) makeFilter(index);
  const fair = document.getElementById("fair");
  if (fair) {
    makeFairFilters(fair);
    makeReferenceChoice(fair);
  }
});

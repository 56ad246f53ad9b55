// hbs site: data files are scripts that call hbsData(name, data); a page loads them on demand.
"use strict";
const hbsLoaded = {};
function hbsData(name, data) { hbsLoaded[name] = data; }
function hbsLoad(name, src) {
  if (hbsLoaded[name]) return Promise.resolve(hbsLoaded[name]);
  return new Promise((resolve, reject) => {
    const tag = document.createElement("script");
    tag.src = src;
    tag.onload = () => resolve(hbsLoaded[name]);
    tag.onerror = () => reject(new Error("cannot load " + src));
    document.head.appendChild(tag);
  });
}
function escapeHtml(s) {
  return String(s).replace(/[&<>"]/g, c => ({"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;"}[c]));
}

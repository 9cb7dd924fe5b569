// A right-to-left page's numbers in its language's own digits: the seats, the night, the clocks, the
// counts. narrator.py puts this file first in the script of a right-to-left page only; the other
// scripts write 0-9, as on every page. The browser's Intl says which digits the language writes (fa: ۰-۹,
// ar: ٠-٩, he: 0-9, when this does nothing), and each text node the page shows, and each placeholder,
// has its 0-9 written in them as it goes into the page: the numbers the scripts read back (a seat's
// data-seat, a select's value) are attributes, and stay 0-9.
(() => {
  const format = new Intl.NumberFormat(document.documentElement.lang, { useGrouping: false });
  const digits = Array.from({ length: 10 }, (_, digit) => format.format(digit));
  if (digits.join("") === "0123456789") return;
  const local = (text) => text.replace(/[0-9]/g, (digit) => digits[digit]);
  function text(node) {
    // The deck's JSON and the script are read as they are, not shown.
    if (node.parentElement && !node.parentElement.closest("script, style")) {
      const shown = local(node.data);
      if (shown !== node.data) node.data = shown;
    }
  }
  function placeholder(element) {
    const value = element.getAttribute("placeholder");
    if (value !== null && local(value) !== value) element.setAttribute("placeholder", local(value));
  }
  function added(node) {
    if (node.nodeType === Node.TEXT_NODE) text(node);
    if (node.nodeType !== Node.ELEMENT_NODE) return;
    const walker = document.createTreeWalker(node, NodeFilter.SHOW_TEXT);
    while (walker.nextNode()) text(walker.currentNode);
    for (const element of [node, ...node.querySelectorAll("[placeholder]")]) placeholder(element);
  }
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.type === "characterData") text(record.target);
      else if (record.type === "attributes") placeholder(record.target);
      else record.addedNodes.forEach(added);
    }
  }).observe(document.body, { childList: true, characterData: true, attributes: true, attributeFilter: ["placeholder"], subtree: true });
})();

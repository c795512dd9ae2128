// The book's search ranking (html_search_scorer in _config.yml; Sphinx inlines this file into
// _static/language_data.js, which is why it is not in book/_static, where Jupyter Book would
// also load it as a page script). Sphinx's default weights, and one change: a result on the API
// pages (book/api, book/api-chapters) ranks 10 below the same match elsewhere, so that a word a
// chapter is about lists the chapter before the functions that compute it.
var Scorer = {
  score: (result) => {
    const [docname, title, anchor, descr, score, filename] = result;
    return docname.startsWith("book/api") ? score - 10 : score;
  },
  objNameMatch: 11,
  objPartialMatch: 6,
  objPrio: { 0: 15, 1: 5, 2: -5 },
  objPrioDefault: 0,
  title: 15,
  partialTitle: 7,
  term: 5,
  partialTerm: 2,
};

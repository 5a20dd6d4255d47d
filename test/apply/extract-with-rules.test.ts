import { selectOne } from 'css-select';
import type { Element } from 'domhandler';
import { describe, expect, it } from 'vitest';
import { extractWithRules } from '../../lib/apply/extract-with-rules';
import { fieldLines } from '../../lib/html/extract-with-rules';
import { compileSelector, isValidSelector, subjectTag } from '../../lib/html/selector';
import { parseHtml } from '../../lib/html/parse';

const page = `<!DOCTYPE html><html><head><title>T</title><script>var inHead = 1;</script></head><body>
<header class="top"><a href="/">Home</a></header>
<div id="main" class="story">
  <h1 class="headline">The headline</h1>
  <div class="byline">By Jane</div>
  <div class="body">
    <p class="lead">First paragraph with <a href="/x" onclick="evil()">a link</a> and <b>bold</b>.</p>
    <div class="ad">Buy things now</div>
    <p>Second paragraph.<script>document.write('no')</script></p>
    <ul class="share"><li>Share on X</li></ul>
    <p style="display:none">Hidden paragraph</p>
    <figure><img src="/pic.jpg" alt="A picture" width="10" onerror="x()"><figcaption>Caption here</figcaption></figure>
  </div>
</div>
<aside><p class="lead">A sidebar lead that the first selector also matches.</p></aside>
<footer>Copyright</footer>
</body></html>`;

describe('extractWithRules', () => {
  it('gives the header selectors\u2019 nodes before the body as the header, apart from the body', () => {
    const r = extractWithRules(parseHtml(page), {
      selectors: ['div.body > p'],
      // div.body > p.lead is the body's; footer comes after the body: neither is the header
      header: ['div.byline', 'div.body > p.lead', 'footer'],
      clean: [],
    });
    expect(r.header).toBe('By Jane');
    expect(r.text.startsWith('First paragraph')).toBe(true);
    expect(r.text).not.toContain('By Jane');
    expect(extractWithRules(parseHtml(page), { selectors: ['div.body > p'], header: ['div.nothing'], clean: [] }).header).toBeUndefined();
    // an element holding the body is not its header, nor is anything after it
    expect(extractWithRules(parseHtml(page), { selectors: ['div.body > p'], header: ['div#main', 'footer'], clean: [] }).header).toBeUndefined();
  });

  it('takes nothing the page does not show, and starts the body at its first node with text', () => {
    const html = `<html><body><div id="main">
      <noscript><div class="body"><p>Enable scripts to read on.</p></div></noscript>
      <div class="body" hidden><p>A teaser the page hides.</p></div>
      <div class="promo"><div class="body"><p><img src="/ad.png"></p></div></div>
      <div class="byline">By Jane</div>
      <div class="body"><p>The council voted on Tuesday.</p></div>
    </div></body></html>`;
    const r = extractWithRules(parseHtml(html), { selectors: ['div.body > p'], header: ['div.byline'], clean: [] });
    // the <noscript> and the hidden box are not taken; the promo's empty match does not end the header
    expect(r.text).toBe('The council voted on Tuesday.');
    expect(r.header).toBe('By Jane');
    // nor does a match whose only text is hidden; and what the page shows, inside a button or under
    // an element a child makes visible again, is taken as before
    const shown = html
      .replace('<p><img src="/ad.png"></p>', '<p><img src="/ad.png"><span hidden>Photo: Ads Inc</span></p>')
      .replace('<div class="body"><p>The council', '<button class="more"><div class="body"><p>Read the full story.</p></div></button><div style="visibility:hidden"><div class="body"><p style="visibility:visible">Shown again.</p></div></div><div class="body"><p>The council');
    const again = extractWithRules(parseHtml(shown), { selectors: ['div.body > p'], header: ['div.byline'], clean: [] });
    expect(again.header).toBe('By Jane');
    expect(again.text).toBe('Read the full story.\nShown again.\nThe council voted on Tuesday.');
  });

  it('puts the dek selectors\u2019 nodes before the body at the head of the body, and leaves them out of the header', () => {
    const r = extractWithRules(parseHtml(page), { selectors: ['div.body > p'], dek: ['div.byline'], header: ['div.byline', 'h1.headline'], clean: [] });
    expect(r.text.split('\n').slice(0, 2)).toEqual(['By Jane', 'First paragraph with a link and bold.']);
    expect(r.html.indexOf('By Jane')).toBeLessThan(r.html.indexOf('First paragraph'));
    expect(r.header).toBe('The headline');
    // a dek match after the body's first node, or holding it, is not the dek
    for (const dek of [['footer'], ['div#main']]) {
      const late = extractWithRules(parseHtml(page), { selectors: ['div.body > p'], dek, clean: [] });
      expect(late.text.startsWith('First paragraph'), dek[0]).toBe(true);
    }
  });

  it('gives the dek once: a header match inside it is left out, one around it is read without it, and a body with no text gets no dek', () => {
    const nested = parseHtml(`<html><body><h1>Headline</h1>
      <div class="intro"><p class="standfirst">The council delayed the harbour vote again.</p><div class="byline">By Jane</div></div>
      <div class="body"><p>First paragraph.</p><p class="empty"></p></div></body></html>`);
    const around = extractWithRules(nested, { selectors: ['div.body > p'], dek: ['p.standfirst'], header: ['div.intro'], clean: [] });
    expect(around.text).toBe('The council delayed the harbour vote again.\nFirst paragraph.');
    expect(around.header).toBe('By Jane');
    const inside = extractWithRules(nested, { selectors: ['div.body > p'], dek: ['div.intro'], header: ['div.byline'], clean: [] });
    expect(inside.text.split('\n')).toEqual(['The council delayed the harbour vote again.', 'By Jane', 'First paragraph.']);
    expect(inside.header).toBeUndefined();
    // the body's selectors take nothing readable: no article from the dek alone (apply falls back)
    const empty = extractWithRules(nested, { selectors: ['p.empty'], dek: ['p.standfirst'], clean: [] });
    expect(empty.wordCount).toBe(0);
    expect(empty.text).toBe('');
    expect(empty.nodes).toBe(1);
  });

  it('takes every match in document order, nested matches once, and removes clean selectors', () => {
    const doc = parseHtml(page);
    const r = extractWithRules(doc, {
      // Out of document order on purpose; `p.lead` is inside `div.body` (nested: taken once).
      selectors: ['aside p.lead', 'div.body', 'h1.headline', 'p.lead'],
      clean: ['.ad', 'ul.share'],
    });
    expect(r.text.split('\n')).toEqual([
      'The headline',
      'First paragraph with a link and bold.',
      'Second paragraph.',
      'Caption here',
      'A sidebar lead that the first selector also matches.',
    ]);
    expect(r.nodes).toBe(3);
    expect(r.invalidSelectors).toEqual([]);
    expect(r.wordCount).toBe(22);
  });

  it('writes clean HTML: allowed tags only, href/src/alt only, no scripts or handlers', () => {
    const doc = parseHtml(page);
    const r = extractWithRules(doc, { selectors: ['div.body'], clean: ['.ad', '.share'] }, { baseUrl: 'https://example.com/a/b' });
    expect(r.html).toBe(
      '<p>First paragraph with <a href="https://example.com/x">a link</a> and <strong>bold</strong>.</p>' +
        '<p>Second paragraph.</p>' +
        '<figure><img src="https://example.com/pic.jpg" alt="A picture"><figcaption>Caption here</figcaption></figure>',
    );
    expect(r.html).not.toMatch(/script|onclick|onerror|class=|style=/);
  });

  it('skips a selector css-select cannot compile, and counts it', () => {
    const doc = parseHtml(page);
    const r = extractWithRules(doc, { selectors: ['div[', 'h1.headline', ':nope(x)'], clean: ['>>>'] });
    expect(r.text).toBe('The headline');
    expect(r.invalidSelectors).toEqual(['div[', ':nope(x)', '>>>']);
    expect(isValidSelector('div[')).toBe(false);
    expect(isValidSelector('body > div#main.story > h1')).toBe(true);
  });

  it('caches compiled selectors by string', () => {
    expect(compileSelector('div.body > p')).toBe(compileSelector('div.body > p'));
    expect(compileSelector('div[')).toBeUndefined();
  });

  it('selects nothing when no selector matches', () => {
    const doc = parseHtml(page);
    const r = extractWithRules(doc, { selectors: ['div.nothing-here'], clean: [] });
    expect(r).toMatchObject({ text: '', html: '', wordCount: 0, nodes: 0 });
  });

  it('matches the render collector selectors (body > ... with ids, classes and escapes)', () => {
    const doc = parseHtml('<html><body><div id="1a" class="x:y"><p>Escaped ids work</p></div></body></html>');
    const r = extractWithRules(doc, { selectors: ['body > div#\\31 a.x\\:y > p'], clean: [] });
    expect(r.text).toBe('Escaped ids work');
  });

  it('wraps list items selected one by one in their list, and bare text in paragraphs', () => {
    const doc = parseHtml(
      '<body><div class="c">Loose text<br>after a break<div>inner block</div><span>tail</span></div>' +
        '<ol class="steps"><li>One</li><li>Two</li></ol></body>',
    );
    const r = extractWithRules(doc, { selectors: ['div.c', 'ol.steps > li'], clean: [] });
    expect(r.text.split('\n')).toEqual(['Loose text', 'after a break', 'inner block', 'tail', 'One', 'Two']);
    expect(r.html).toBe('<p>Loose text</p><p>after a break</p><p>inner block</p><p>tail</p><ol><li>One</li><li>Two</li></ol>');
  });

  it('keeps data tables and unwraps layout tables', () => {
    const doc = parseHtml(
      '<body><table class="data"><tr><th>Year</th><th colspan="2" class="c">Sales</th></tr><tr><td>2012</td><td>5</td><td></td></tr></table>' +
        '<table class="layout"><tr><td><h2>Title</h2><p>Body text</p></td><td>Menu</td></tr></table></body>',
    );
    const data = extractWithRules(doc, { selectors: ['table.data'], clean: [] });
    expect(data.html).toBe('<table><tr><th>Year</th><th colspan="2">Sales</th></tr><tr><td>2012</td><td>5</td><td></td></tr></table>');
    expect(data.text.split('\n')).toEqual(['Year', 'Sales', '2012', '5']);
    const layout = extractWithRules(doc, { selectors: ['table.layout'], clean: [] });
    expect(layout.html).toBe('<h2>Title</h2><p>Body text</p><p>Menu</p>');
  });

  it('leaves out a body line that shows the byline and the date together, each under half its words, and keeps a sentence that names the author', () => {
    const doc = parseHtml(
      '<body><div class="post"><p class="meta">By <span class="by">Ann Lee</span> | <span class="when">March 12, 2009</span> | 5 comments</p>' +
        '<p>The council delayed the vote again, <span class="by2">Ann Lee</span> reports from the harbour meeting.</p><p>Second paragraph of the story.</p></div></body>',
    );
    const el = (selector: string) => selectOne(selector, doc) as unknown as Element;
    const meta = el('p.meta');
    const body = [el('div.post')];
    // each field alone is under half the line's words (2 and 3 of 9); together they are more
    expect(fieldLines(body, [el('span.by')]).has(meta)).toBe(false);
    expect(fieldLines(body, [el('span.by'), el('span.when')])).toEqual(new Set([meta]));
    // the same element giving both fields counts once
    expect(fieldLines(body, [el('span.by'), el('span.by')]).size).toBe(0);
    const r = extractWithRules(doc, { selectors: ['div.post'], clean: [] }, { fieldElements: [el('span.by2'), el('span.when')] });
    expect(r.text.split('\n')).toEqual(['By Ann Lee | March 12, 2009 | 5 comments', 'The council delayed the vote again, Ann Lee reports from the harbour meeting.', 'Second paragraph of the story.']);
    expect(extractWithRules(doc, { selectors: ['div.post'], clean: [] }, { fieldElements: [el('span.by'), el('span.when')] }).text.split('\n')).toEqual([
      'The council delayed the vote again, Ann Lee reports from the harbour meeting.',
      'Second paragraph of the story.',
    ]);
  });

  it('keeps a table its header cells declare data, though a cell holds two lines (more lines than cells)', () => {
    // as a document editor exports a table: every cell's text in a line of its own, a long header on two
    const cell = (...lines: string[]) => `<td>${lines.map((l) => `<div>${l}</div>`).join('')}</td>`;
    const rows = `<tr>${cell('App')}${cell('Patch size', '(% vs original)')}</tr><tr>${cell('Maps')}${cell('17.5 MB (-46%)')}</tr>`;
    const doc = parseHtml(`<body><div class="declared"><table><colgroup><col><col></colgroup>${rows}</table></div><div class="bare"><table>${rows}</table></div></body>`);
    const declared = extractWithRules(doc, { selectors: ['div.declared'], clean: [] });
    expect(declared.html).toBe('<table><tr><td><p>App</p></td><td><p>Patch size</p><p>(% vs original)</p></td></tr><tr><td><p>Maps</p></td><td><p>17.5 MB (-46%)</p></td></tr></table>');
    // without them, more lines than cells still reads as layout
    expect(extractWithRules(doc, { selectors: ['div.bare'], clean: [] }).html).not.toContain('<table>');
  });

  it('unwraps the table a code listing is laid out in, without its line numbers, and a table of one cell: frames, not data', () => {
    const doc = parseHtml(
      '<body><div class="listing"><table><tr><td class="gutter"><pre>1\n2\n3</pre></td><td class="code"><pre>let a = 1;\nlet b = 2;\nlet c = 3;</pre></td></tr></table></div>' +
        // a highlighter that writes each line number as a block of its own
        '<div class="rows"><table><tr><td><div>1</div><div>2</div></td><td><pre>x();\ny();</pre></td></tr></table></div>' +
        '<div class="framed"><table><tr><td>Framed <b>note</b>.</td></tr></table></div>' +
        // a row of page links is no gutter: numbers on one line
        '<div class="pages"><table><tr><td><p>Story text, long enough.</p><p>More of it.</p><p>And more.</p></td><td><a href="/p1">1</a> <a href="/p2">2</a></td></tr></table></div>' +
        // a data table a cell of which holds code stays a data table; hidden code makes no frame
        '<div class="data"><table><tr><th>Command</th><th>Effect</th></tr><tr><td><pre>ls -l</pre></td><td>lists</td></tr></table>' +
        '<table><tr><th>A</th><th>B</th></tr><tr><td>1<pre hidden>x</pre></td><td>2</td></tr></table></div></body>',
    );
    const listing = extractWithRules(doc, { selectors: ['div.listing'], clean: [] });
    expect(listing.html).toBe('<pre>let a = 1;\nlet b = 2;\nlet c = 3;</pre>');
    expect(listing.text.split('\n')).toEqual(['let a = 1;', 'let b = 2;', 'let c = 3;']);
    expect(extractWithRules(doc, { selectors: ['div.rows'], clean: [] }).html).toBe('<pre>x();\ny();</pre>');
    const framed = extractWithRules(doc, { selectors: ['div.framed'], clean: [] });
    expect(framed.html).toBe('<p>Framed <strong>note</strong>.</p>');
    expect(framed.text).toBe('Framed note.');
    expect(extractWithRules(doc, { selectors: ['div.pages'], clean: [] }).text.split('\n')).toEqual(['Story text, long enough.', 'More of it.', 'And more.', '1 2']);
    expect(extractWithRules(doc, { selectors: ['div.data'], clean: [] }).html).toBe(
      '<table><tr><th>Command</th><th>Effect</th></tr><tr><td><pre>ls -l</pre></td><td>lists</td></tr></table><table><tr><th>A</th><th>B</th></tr><tr><td>1</td><td>2</td></tr></table>',
    );
  });

  it('leaves out the line numbers a highlighter writes at the start of each code line, not numbers that are the code', () => {
    const doc = parseHtml(
      // Pygments' inline numbers, and Hugo's (a span per line, its number in a span of its own), from 9 on
      '<body><div class="pygments"><pre><span class="linenos">1</span>let a = 1;\n<span class="linenos">2</span>\n<span class="linenos">3</span>let c = 3;</pre></div>' +
        '<div class="hugo"><pre><code><span class="line"><span class="ln">9</span><span class="cl">x();\n</span></span><span class="line"><span class="ln">10</span><span class="cl">y();\n</span></span></code></pre></div>' +
        // numbers that are the listing's text (lines of nothing else), numbers out of order, a numeric literal
        '<div class="numbers"><pre><span>1</span>\n<span>2</span>\n<span>3</span></pre></div>' +
        '<div class="literals"><pre><span class="mi">4</span> + 1\n<span class="mi">7</span> * 2</pre></div>' +
        // an RFC's numbered section headings, among its other lines
        '<div class="rfc"><pre><a href="#s2">2</a>. Terminology\n\n   The key words.\n\n<a href="#s3">3</a>. Storage model\n\n   The server stores.</pre></div></body>',
    );
    const text = (selector: string) => extractWithRules(doc, { selectors: [selector], clean: [] }).text.split('\n');
    expect(extractWithRules(doc, { selectors: ['div.pygments'], clean: [] }).html).toBe('<pre>let a = 1;\n\nlet c = 3;</pre>');
    expect(text('div.hugo')).toEqual(['x();', 'y();']);
    expect(text('div.numbers')).toEqual(['1', '2', '3']);
    expect(text('div.literals')).toEqual(['4 + 1', '7 * 2']);
    expect(text('div.rfc').filter(Boolean)).toEqual(['2. Terminology', 'The key words.', '3. Storage model', 'The server stores.']);
  });

  it('keeps struck-out text marked as such', () => {
    const doc = parseHtml('<body><p class="c">The <del>old</del> <strike>older</strike> <s>oldest</s> figure.</p></body>');
    const r = extractWithRules(doc, { selectors: ['p.c'], clean: [] });
    expect(r.html).toBe('<p>The <del>old</del> <s>older</s> <s>oldest</s> figure.</p>');
    expect(r.text).toBe('The old older oldest figure.');
  });

  it("keeps a code block's language as the page names it, and no other class", () => {
    const doc = parseHtml('<body><div class="c"><pre class="prettyprint lang-JS linenums"><code>let a;</code></pre><pre class="x"><code class="hljs language-c++">int b;</code></pre></div></body>');
    const r = extractWithRules(doc, { selectors: ['div.c'], clean: [] });
    expect(r.html).toBe('<pre class="language-js"><code>let a;</code></pre><pre><code class="language-c++">int b;</code></pre>');
  });

  it('keeps pre formatting and drops javascript: links', () => {
    const doc = parseHtml('<body><pre class="code">line 1\n  line 2 &lt;b&gt;</pre><p><a href="javascript:alert(1)">click</a> me</p></body>');
    const r = extractWithRules(doc, { selectors: ['pre', 'p'], clean: [] });
    expect(r.html).toBe('<pre>line 1\n  line 2 &lt;b&gt;</pre><p>click me</p>');
    expect(r.text.split('\n')).toEqual(['line 1', 'line 2 <b>', 'click me']);
  });

  it('indexes selectors by their subject tag, and matches untagged ones everywhere', () => {
    expect(subjectTag('body > div#main.story > P.lead')).toBe('p');
    expect(subjectTag('body > div#\\31 a.x\\:y > p')).toBe('p');
    // an escaped character in the tag: any tag, never a cut name (`o` for `o:p`)
    expect(subjectTag('body > div.w > o\\:p')).toBeUndefined();
    expect(subjectTag('div#\\31 a')).toBe('div');
    expect(subjectTag('article  h2 + p ~ ul')).toBe('ul');
    expect(subjectTag('div[data-x="a > b"] span')).toBe('span');
    expect(subjectTag('div > .x')).toBeUndefined();
    expect(subjectTag('div, p')).toBeUndefined();
    expect(subjectTag('div:not(.x)')).toBeUndefined();
    expect(subjectTag('svg|rect')).toBeUndefined();
    expect(subjectTag('*')).toBe(undefined);
    const doc = parseHtml('<body><div class="x"><p class="y">Text one</p></div><section class="x">Text two</section></body>');
    const r = extractWithRules(doc, { selectors: ['.x > p', 'body > section.x'], clean: [] });
    expect(r.text.split('\n')).toEqual(['Text one', 'Text two']);
  });

  it('keeps the HTML well nested around blocks inside links and line breaks inside kept elements', () => {
    const doc = parseHtml('<body><div class="c">Lead <a href="/x"><div>Block in link</div></a> tail<hr>After rule</div><p>One<br>Two<br></p></body>');
    const r = extractWithRules(doc, { selectors: ['div.c', 'p'], clean: [] });
    expect(r.html).toBe('<p>Lead <a href="/x">Block in link</a> tail</p><p>After rule</p><p>One<br>Two<br></p>');
    expect(r.text.split('\n')).toEqual(['Lead', 'Block in link', 'tail', 'After rule', 'One', 'Two']);
  });

  it('takes prose written bare into the body\u2019s container between two of its nodes, and nothing bare around them', () => {
    const doc = parseHtml(`<html><body><div class="post">
      Loose text before the article.
      <h1>Headline</h1><span class="byline">By Jane Doe</span>
      <p>First paragraph.</p><hr>
      <img src="/a.jpg">In the wake of the vote, <b>the council</b> met again and <a href="/m">read the minutes</a>.<br>A second line.
      <hr><p>Second paragraph.</p>
      <a href="/1">Related one</a> <a href="/2">Related two</a> and more
      <p>Third paragraph.</p>
      Share this story now.
    </div><div class="other"><p>Elsewhere.</p></div></body></html>`);
    const r = extractWithRules(doc, { selectors: ['div.post > h1', 'div.post > p', 'div.other > p'], clean: [] });
    expect(r.text.split('\n')).toEqual([
      'Headline',
      'First paragraph.',
      'In the wake of the vote, the council met again and read the minutes.',
      'A second line.',
      'Second paragraph.',
      'Third paragraph.',
      'Elsewhere.',
    ]);
    expect(r.html).toContain('<p><img src="/a.jpg">In the wake of the vote, <strong>the council</strong> met again and <a href="/m">read the minutes</a>.</p><p>A second line.</p>');
    // the byline span is an element the learner judged, not bare prose; text before the first node is outside
    expect(r.text).not.toContain('By Jane');
    expect(r.text).not.toContain('Loose text');
  });

  it('takes bare prose only as rendered prose, whole, and only between block-level body nodes', () => {
    const doc = parseHtml(`<html><body><div class="post">
      <p>First paragraph.</p>Advertisement<p>Second paragraph.</p>
      Some bare prose written <!-- a comment --> into the container <script>var x = 1;</script>between paragraphs.
      <p>Third paragraph.</p>Bare words that read as prose and run on here <span class="ad">buy buy buy buy buy buy buy buy buy buy</span>
      <p>Fourth paragraph.</p>
      <p class="faq"><a class="q">Question one</a> the answer written out in a few words <a class="q">Question two</a></p>
    </div></body></html>`);
    const r = extractWithRules(doc, { selectors: ['div.post > p', 'p.faq > a.q'], clean: ['span.ad'] });
    expect(r.text.split('\n')).toEqual([
      'First paragraph.',
      'Second paragraph.',
      'Some bare prose written into the container between paragraphs.',
      'Third paragraph.',
      'Bare words that read as prose and run on here',
      'Fourth paragraph.',
      'Question one the answer written out in a few words Question two',
    ]);
  });

  it('counts bare prose in scripts written without spaces by their letters, two to a word', () => {
    const doc = parseHtml(`<html><body><div class="post"><p>第一段文字。</p>今天上午，市政府召开新闻发布会，宣布了新的交通政策。<p>第二段文字。</p>广告<p>第三段文字。</p></div></body></html>`);
    const r = extractWithRules(doc, { selectors: ['div.post > p'], clean: [] });
    expect(r.text.split('\n')).toEqual(['第一段文字。', '今天上午，市政府召开新闻发布会，宣布了新的交通政策。', '第二段文字。', '第三段文字。']);
  });
});

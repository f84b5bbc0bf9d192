// Taikai's views of a tournament, drawn from the JSON a run writes (results.json) and the scheduler
// serves: standings with Elo error bars, terminations and clocks with the failures flagged, a match's
// statistics and its SPRT LLR path, a league's rating history, the crosstable, the games, and a game
// viewer with its evaluation graph. The report of a local run and the dashboard use the same views.
var Taikai = window.Taikai || {};
window.Taikai = Taikai;

Taikai.views = (function () {
  var COLORS = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#7f7f7f', '#bcbd22', '#17becf'];
  var FAILURES = ['time_forfeit', 'illegal_move', 'disconnect', 'stall'];

  function el(tag, attributes, text) {
    var node = document.createElement(tag);
    Object.keys(attributes || {}).forEach(function (key) { node.setAttribute(key, attributes[key]); });
    if (text !== undefined && text !== null) node.textContent = text;
    return node;
  }

  function section(container, title, id) {
    var s = el('section', { id: id });
    s.appendChild(el('h2', {}, title));
    container.appendChild(s);
    return s;
  }

  function number(value, digits) {
    if (value === null || value === undefined || !isFinite(value)) return '—';
    var text = Number(value).toFixed(digits);
    return /^-0(\.0*)?$/.test(text) ? text.substring(1) : text; // a tiny negative is 0.0, not -0.0, as in the text report
  }

  /** A share as a percentage; a missing one (no game yet) as a dash, not as 0 %. */
  function percent(share) {
    return share === null || share === undefined || !isFinite(share) ? '—' : number(share * 100, 1) + ' %';
  }

  function row(cells, attributes) {
    var tr = el('tr', attributes);
    cells.forEach(function (cell) {
      if (cell instanceof Node) {
        var td = el('td');
        td.appendChild(cell);
        tr.appendChild(td);
      } else {
        tr.appendChild(el('td', {}, cell));
      }
    });
    return tr;
  }

  function table(headers) {
    var t = el('table');
    var head = el('tr');
    headers.forEach(function (h) { head.appendChild(el('th', {}, h)); });
    t.appendChild(head);
    return t;
  }

  /** An SVG of each engine's Elo and its 95% interval on one scale. */
  function eloBar(elo, error, scale) {
    var width = 160;
    var svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    svg.setAttribute('width', width);
    svg.setAttribute('height', 14);
    svg.setAttribute('class', 'bar');
    function x(value) { return Math.max(0, Math.min(width, width / 2 + value / scale * (width / 2))); }
    var axis = document.createElementNS(svg.namespaceURI, 'line');
    axis.setAttribute('x1', width / 2); axis.setAttribute('x2', width / 2);
    axis.setAttribute('y1', 0); axis.setAttribute('y2', 14); axis.setAttribute('stroke', '#bbb');
    svg.appendChild(axis);
    if (elo !== null && isFinite(elo)) {
      if (error !== null && isFinite(error)) {
        var span = document.createElementNS(svg.namespaceURI, 'line');
        span.setAttribute('x1', x(elo - error)); span.setAttribute('x2', x(elo + error));
        span.setAttribute('y1', 7); span.setAttribute('y2', 7);
        span.setAttribute('stroke', '#1f77b4'); span.setAttribute('stroke-width', 3);
        svg.appendChild(span);
      }
      var dot = document.createElementNS(svg.namespaceURI, 'circle');
      dot.setAttribute('cx', x(elo)); dot.setAttribute('cy', 7); dot.setAttribute('r', 4); dot.setAttribute('fill', '#20232a');
      svg.appendChild(dot);
    }
    return svg;
  }

  /**
   * A Swiss's table and a knockout's bracket, as results.json has them (swiss, knockout): the standings'
   * order by rating is neither, and the knockout's winner is said nowhere else. Nothing for other formats.
   */
  function format(container, results) {
    if (results.swiss) {
      var s = section(container, 'Swiss table', 'swiss');
      var t = table(['Rank', 'Engine', 'Score', 'Byes']);
      (results.swiss.table || []).forEach(function (r) {
        t.appendChild(row([String(r.rank), r.engine, number(r.score, 1), String(r.byes || 0)], { 'data-engine': r.engine }));
      });
      s.appendChild(t);
      s.appendChild(el('p', { class: 'muted' }, 'After ' + results.swiss.after_rounds + ' rounds; a bye scores as a won pairing.'));
    }
    if (results.knockout) {
      var k = section(container, 'Knockout bracket', 'knockout');
      k.appendChild(el('p', { id: 'knockout-winner' }, results.knockout.winner ? 'Winner: ' + results.knockout.winner
        : 'No winner yet.'));
      var b = table(['Round', 'Match', 'Points', 'Games', 'Winner', 'How']);
      (results.knockout.rounds || []).forEach(function (matches, i) {
        matches.forEach(function (m) {
          var bye = m.low_seed === null || m.low_seed === undefined;
          b.appendChild(row([String(i + 1), bye ? m.high_seed : m.high_seed + ' vs ' + m.low_seed,
            bye ? '' : number(m.high_points, 1) + ' – ' + number(m.low_points, 1), String(m.games || 0),
            m.winner || 'playing', m.how || ''], { 'data-round': String(i + 1) }));
        });
      });
      k.appendChild(b);
      k.appendChild(el('p', { class: 'muted' }, 'The better seed first.'));
    }
  }

  function standings(container, results) {
    var s = section(container, 'Standings', 'standings');
    var rows = results.standings || [];
    var scale = 100;
    rows.forEach(function (r) {
      if (r.elo !== null && isFinite(r.elo)) scale = Math.max(scale, Math.abs(r.elo) + (isFinite(r.elo_error) ? r.elo_error : 0));
    });
    var t = table(['Rank', 'Engine', 'Games', 'Points', 'W', 'D', 'L', 'Elo', '±95%', 'Elo (95%)']);
    rows.forEach(function (r) {
      t.appendChild(row([String(r.rank), r.engine, String(r.games), number(r.points, 1), String(r.wins), String(r.draws),
        String(r.losses), number(r.elo, 1), number(r.elo_error, 1), eloBar(r.elo, r.elo_error, scale)],
      { 'data-engine': r.engine, 'data-points': String(r.points), 'data-games': String(r.games) }));
    });
    s.appendChild(t);
    s.appendChild(el('p', { class: 'muted' }, 'Elo: maximum-likelihood fit over all games; bars from −' +
      Math.round(scale) + ' to +' + Math.round(scale) + '.'));
  }

  function terminations(container, results) {
    // the clock columns where the results have each engine's clock (a run's do; the scheduler's API has none)
    var clocks = (results.standings || []).some(function (r) { return !!r.clock; });
    var s = section(container, clocks ? 'Terminations and clocks' : 'Terminations', 'terminations');
    var kinds = {};
    (results.standings || []).forEach(function (r) { Object.keys(r.terminations || {}).forEach(function (k) { kinds[k] = true; }); });
    var names = Object.keys(kinds).sort();
    var t = table(['Engine'].concat(names).concat(clocks ? ['moves over time', 'max overrun ms', 'time losses'] : []));
    (results.standings || []).forEach(function (r) {
      var cells = [r.engine];
      names.forEach(function (k) { cells.push(String((r.terminations || {})[k] || 0)); });
      var clock = r.clock || {};
      if (clocks) {
        cells.push(String(clock.moves_over_allowance || 0) + ' of ' + String(clock.moves || 0));
        cells.push(number(clock.max_overrun_ms, 1));
        cells.push(String(clock.time_losses || 0));
      }
      var tr = row(cells, { 'data-engine': r.engine });
      names.forEach(function (k, i) {
        if (FAILURES.indexOf(k) >= 0 && (r.terminations || {})[k] > 0) tr.children[i + 1].className = 'bad';
      });
      if (clocks && clock.time_losses > 0) tr.lastChild.className = 'bad';
      t.appendChild(tr);
    });
    s.appendChild(t);
    s.appendChild(el('p', { class: 'muted' }, 'Terminations count every game that ended so; marked: losses by failure ' +
      '(time, illegal move, disconnect, stall).'));
  }

  function plot(container, title, series, data, options) {
    if (typeof uPlot === 'undefined' || data[0].length === 0) {
      container.appendChild(el('p', { class: 'muted' }, title + ': nothing to plot yet'));
      return null;
    }
    var target = el('div', { class: 'plot' });
    container.appendChild(target);
    var opts = Object.assign({ title: title, width: Math.min(900, (container.clientWidth || 900) - 20), height: 240,
      series: [{}].concat(series), scales: { x: { time: false } } }, options || {});
    return new uPlot(opts, data, target);
  }

  function match(container, results, llrPath) {
    var m = results.match;
    if (!m) return;
    var s = section(container, 'Match ' + m.engine + ' vs ' + m.opponent, 'match');
    var t = table(['Measure', 'Value']);
    // no interval where the results did not vary (elo_interval false; before it was written, both ends
    // null); with one, a null end is infinite
    var given = m.elo_interval !== undefined ? m.elo_interval : !(m.elo_lower == null && m.elo_upper == null);
    var interval = !given ? ' (no interval)'
      : ' (95%: ' + (m.elo_lower == null ? '-inf' : number(m.elo_lower, 1)) + ' to ' +
        (m.elo_upper == null ? '+inf' : number(m.elo_upper, 1)) + ')';
    var elo = m.elo_infinite ? (m.elo_infinite > 0 ? '+inf' : '-inf') : number(m.elo, 1);
    t.appendChild(row(['Elo', elo + interval], { 'data-measure': 'elo' }));
    t.appendChild(row(['LOS', percent(m.los)], { 'data-measure': 'los' }));
    t.appendChild(row(['Draw ratio', percent(m.draw_ratio)], { 'data-measure': 'draw-ratio' }));
    t.appendChild(row(['Pentanomial [0, ½, 1, 1½, 2]', '[' + (m.pentanomial || []).join(', ') + ']'], { 'data-measure': 'pentanomial' }));
    if (m.normalized_elo !== undefined) t.appendChild(row(['Normalized Elo', number(m.normalized_elo, 1)]));
    if (m.sprt) {
      var errors = m.sprt.alpha === undefined ? '' : ' (alpha ' + m.sprt.alpha + ', beta ' + m.sprt.beta + ')';
      t.appendChild(row(['SPRT [' + m.sprt.elo0 + ', ' + m.sprt.elo1 + ']' + errors, 'LLR ' + number(m.sprt.llr, 2) + ' (' +
        number(m.sprt.lower_bound, 2) + ', ' + number(m.sprt.upper_bound, 2) + '): ' + m.sprt.status], { 'data-measure': 'sprt' }));
    }
    s.appendChild(t);
    if (m.sprt && llrPath && llrPath.length) {
      var games = llrPath.map(function (p) { return p[0]; });
      plot(s, 'SPRT: LLR after each game pair', [
        { label: 'LLR', stroke: '#1f77b4', width: 2 },
        { label: 'lower bound', stroke: '#d62728', dash: [4, 4] },
        { label: 'upper bound', stroke: '#2ca02c', dash: [4, 4] }
      ], [games, llrPath.map(function (p) { return p[1]; }), games.map(function () { return m.sprt.lower_bound; }),
        games.map(function () { return m.sprt.upper_bound; })], { axes: [{ incrs: [2, 4, 10, 20, 50, 100, 200, 500] }, {}] });
    }
  }

  function league(container, results) {
    var l = results.league;
    if (!l) return;
    var s = section(container, 'League: ratings after each round', 'league');
    var engines = Object.keys(l.history || {}).sort();
    var rounds = [];
    engines.forEach(function (e) { l.history[e].forEach(function (p) { if (rounds.indexOf(p.round) < 0) rounds.push(p.round); }); });
    rounds.sort(function (a, b) { return a - b; });
    var series = [];
    var data = [rounds];
    engines.forEach(function (e, i) {
      var byRound = {};
      l.history[e].forEach(function (p) { byRound[p.round] = p.elo; });
      series.push({ label: e, stroke: COLORS[i % COLORS.length], width: 2, spanGaps: false });
      data.push(rounds.map(function (r) { return byRound[r] === undefined || byRound[r] === null ? null : byRound[r]; }));
    });
    var chart = plot(s, 'Rating history (Elo)', series, data, { axes: [{ incrs: [1, 2, 5, 10, 20, 50, 100] }, {}] });
    if (chart) s.setAttribute('data-plotted', String(rounds.length));
    if (l.paired) {
      s.appendChild(el('p', { id: 'league-round' }, 'Rounds paired: ' + l.paired + (l.paired > (l.rounds || 0) ?
        ' (round ' + l.paired + ' in progress)' : '')));
    }
    if (l.changes && l.changes.length) {
      s.appendChild(el('p', { id: 'league-changes' }, 'Joins and leaves: ' + l.changes.join('; ')));
    }
    var t = table(['Engine', 'Elo', '±95%', 'Games', 'In the pool']);
    (l.ratings || []).forEach(function (r) {
      t.appendChild(row([r.engine, number(r.elo, 1), number(r.error, 1), String(r.games), r.active ? 'yes' : 'left']));
    });
    s.appendChild(t);
  }

  /** Points of each engine against each other, from the games. */
  function crosstable(container, results) {
    var games = results.games || [];
    var engines = (results.standings || []).map(function (r) { return r.engine; });
    if (engines.length < 2) return;
    var cells = {};
    games.forEach(function (g) {
      var senteScore = g.result === 'sente' ? 1 : g.result === 'draw' ? 0.5 : 0;
      [[g.sente, g.gote, senteScore], [g.gote, g.sente, 1 - senteScore]].forEach(function (e) {
        var key = e[0] + '\u0000' + e[1];
        cells[key] = cells[key] || { points: 0, games: 0 };
        cells[key].points += e[2];
        cells[key].games += 1;
      });
    });
    var s = section(container, 'Crosstable', 'crosstable');
    var t = table([''].concat(engines));
    engines.forEach(function (e) {
      var r = [e];
      engines.forEach(function (o) {
        var c = cells[e + '\u0000' + o];
        r.push(e === o ? '×' : c ? c.points + '/' + c.games : '');
      });
      t.appendChild(row(r));
    });
    s.appendChild(t);
  }

  function games(container, results, onSelect) {
    var s = section(container, 'Games (' + (results.games || []).length + ')', 'games');
    var t = table(['Game', 'Sente', 'Gote', 'Result', 'Termination', 'Plies']);
    (results.games || []).forEach(function (g) {
      var tr = row([g.id, g.sente, g.gote, g.result, g.termination, String(g.plies)],
        { class: 'clickable', 'data-game': g.id });
      if (FAILURES.indexOf(g.termination) >= 0) tr.children[4].className = 'bad';
      tr.addEventListener('click', function () { onSelect(g); });
      t.appendChild(tr);
    });
    s.appendChild(t);
  }

  /**
   * A game to step through: the board (its board SFEN in data-board-sfen, for checks), the moves, the
   * engines' evaluations from sente's side as a graph, and links to its records.
   */
  function viewer(container, game, variant, links) {
    container.innerHTML = '';
    container.appendChild(el('h2', {}, game.id + ': ' + game.sente + ' vs ' + game.gote + ', ' + game.result +
      ' by ' + game.termination));
    if (game.detail) container.appendChild(el('p', { class: 'muted' }, game.detail));
    var positions = Taikai.board.positions(game.start_sfen, game.moves || []);
    var layout = el('div', { class: 'viewer' });
    var left = el('div');
    var boardElement = el('div', { class: 'board', id: 'viewer-board' });
    left.appendChild(boardElement);
    var controls = el('div', { class: 'controls' });
    var buttons = {};
    ['first', 'prev', 'next', 'last'].forEach(function (name) {
      buttons[name] = el('button', { id: 'viewer-' + name, type: 'button' }, { first: '«', prev: '‹', next: '›', last: '»' }[name]);
      controls.appendChild(buttons[name]);
    });
    var plyLabel = el('span', { id: 'viewer-ply' });
    controls.appendChild(plyLabel);
    left.appendChild(controls);
    layout.appendChild(left);
    var moveList = el('div', { class: 'moves' });
    // numbered as pairs of sente's move and gote's; a game from a position with gote to move opens "1. … move"
    var shift = positions[0].senteToMove ? 0 : 1;
    (game.moves || []).forEach(function (move, i) {
      var at = i + shift;
      var number = at % 2 === 0 ? (at / 2 + 1) + '. ' : i === 0 ? '1. … ' : '';
      var span = el('span', { 'data-ply': String(i + 1) }, number + move);
      span.addEventListener('click', function () { show(i + 1); });
      moveList.appendChild(span);
      moveList.appendChild(document.createTextNode(' '));
    });
    layout.appendChild(moveList);
    container.appendChild(layout);
    var current = 0;
    function show(ply) {
      current = Math.max(0, Math.min(positions.length - 1, ply));
      var position = positions[current];
      Taikai.board.draw(boardElement, position, variant, current > 0 ? game.moves[current - 1] : null,
        { sente: game.sente, gote: game.gote });
      boardElement.setAttribute('data-board-sfen', Taikai.board.boardSfen(position));
      boardElement.setAttribute('data-ply', String(current));
      plyLabel.textContent = ' ply ' + current + ' of ' + (positions.length - 1);
      Array.prototype.forEach.call(moveList.querySelectorAll('span'), function (span) {
        span.className = Number(span.getAttribute('data-ply')) === current ? 'current' : '';
      });
    }
    buttons.first.addEventListener('click', function () { show(0); });
    buttons.prev.addEventListener('click', function () { show(current - 1); });
    buttons.next.addEventListener('click', function () { show(current + 1); });
    buttons.last.addEventListener('click', function () { show(positions.length - 1); });
    container.onkeydown = function (e) {
      if (e.key === 'ArrowLeft') show(current - 1);
      if (e.key === 'ArrowRight') show(current + 1);
    };
    show(0);
    var plies = [];
    var sente = [];
    (game.move_data || []).forEach(function (m, i) {
      if (!m.score) return;
      var value = m.score.cp !== undefined ? m.score.cp : (m.score.mate > 0 ? 3000 : -3000);
      plies.push(i + 1);
      sente.push(i % 2 === (positions[0].senteToMove ? 0 : 1) ? value : -value);
    });
    if (game.move_data || !game.plies) {
      plot(container, 'Evaluation (centipawns, sente\'s view)', [{ label: 'score', stroke: '#1f77b4', width: 2 }],
        [plies, sente], { axes: [{ incrs: [1, 2, 5, 10, 20, 50, 100] }, {}] });
    } else { // a long run's report keeps the evaluations of its latest games only
      container.appendChild(el('p', { class: 'muted', id: 'viewer-no-move-data' },
        'This page holds the evaluations and times of the latest games only; this game\'s are in results.json.'));
    }
    if (links) {
      var p = el('p');
      links.forEach(function (link) {
        var a = el('a', { href: link.href }, link.text);
        p.appendChild(a);
        p.appendChild(document.createTextNode(' '));
      });
      container.appendChild(p);
    }
    return { show: show };
  }

  return {
    standings: standings, format: format, terminations: terminations, match: match, league: league, crosstable: crosstable,
    games: games, viewer: viewer, el: el, section: section
  };
})();

/** The report of a local run: everything from its results (and, for an SPRT, its LLR path). */
Taikai.report = function (data) {
  var results = data.results;
  var t = results.tournament || {};
  document.title = 'Taikai: ' + t.name;
  var header = document.getElementById('header');
  header.appendChild(Taikai.views.el('h1', {}, t.name));
  header.appendChild(Taikai.views.el('div', { class: 'sub' }, t.variant + ', ' + t.format + ', ' + (results.games || []).length +
    ' games' + ((results.games || []).length > data.games_with_move_data ? ' (evaluations and times of the latest ' +
    data.games_with_move_data + ')' : '') + '; written ' + data.written + (data.finished ? '' : ' while the run went on (an interrupted run stays so; reload for a later one while it runs)')));
  var main = document.getElementById('main');
  Taikai.views.standings(main, results);
  Taikai.views.format(main, results);
  Taikai.views.match(main, results, data.llr_path);
  Taikai.views.league(main, results);
  Taikai.views.terminations(main, results);
  Taikai.views.crosstable(main, results);
  var viewerSection = Taikai.views.section(main, 'Game', 'viewer');
  viewerSection.setAttribute('tabindex', '0');
  viewerSection.appendChild(Taikai.views.el('p', { class: 'muted' }, 'Choose a game below.'));
  Taikai.views.games(main, results, function (game) {
    Taikai.views.viewer(viewerSection, game, t.variant, [
      { href: 'games/' + game.id + '.kif', text: 'KIF' },
      { href: 'results.json', text: 'results.json' }
    ]);
    viewerSection.scrollIntoView();
  });
};

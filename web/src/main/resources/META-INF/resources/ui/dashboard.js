// The services' dashboard: the scheduler's API (protobuf's JSON) turned into the shape of a run's
// results.json, so that the report's views draw it; the live games from the referees' event stream
// (GET /api/live); the cluster's referees and workers (GET /api/cluster). Pages by the URL's hash:
// #/ tournaments, #/t/<id> one tournament, #/live, #/cluster. A 401 sends the browser to the login.
(function () {
  var views = Taikai.views;
  var el = views.el;
  var main = document.getElementById('main');
  var refresh = null;
  var stream = null;

  function api(path) {
    return fetch(path, { credentials: 'same-origin', headers: { Accept: 'application/json' } }).then(function (response) {
      if (response.status === 401) {
        location.href = '/ui/login.html' + location.hash;
        throw new Error('not logged in');
      }
      if (!response.ok) {
        return response.json().catch(function () { return {}; }).then(function (body) {
          var error = new Error(body.error || response.status);
          error.status = response.status;
          throw error;
        });
      }
      return response.json();
    });
  }

  function lower(name, prefix) {
    return (name || '').replace(prefix, '').toLowerCase();
  }

  /** A number of protobuf's JSON, which leaves out a field that is 0 and writes NaN and ±Infinity as text. */
  function num(value) {
    return value === undefined || value === null ? 0 : Number(value);
  }

  /** A number as results.json has it: null where it is infinite (or not a number). */
  function finite(value) {
    return isFinite(value) ? value : null;
  }

  /** A record of the API as a game of results.json. */
  function game(record) {
    var a = record.assignment || {};
    var result = lower(record.result, 'RESULT_');
    return {
      id: a.localId || a.gameId,
      sente: (a.sente || {}).name,
      gote: (a.gote || {}).name,
      result: result === 'sente_wins' ? 'sente' : result === 'gote_wins' ? 'gote' : 'draw',
      termination: lower(record.termination, 'TERMINATION_'),
      detail: record.detail,
      start_sfen: record.startSfen,
      moves: (record.moves || []).map(function (m) { return m.move; }),
      plies: (record.moves || []).length,
      move_data: (record.moves || []).map(function (m) {
        var score = m.score ? (m.score.mate !== undefined ? { mate: m.score.mate } : { cp: num(m.score.cp) }) : null;
        return { score: score, depth: m.depth, time_ms: num(m.engineNs) / 1e6 };
      })
    };
  }

  /** The scheduler's state, standings and records as results.json has them. */
  function results(state, standings, records) {
    var spec = state.spec || {};
    var games = records.map(game);
    // counted from the records, as results.json counts them: the API's counts leave out the endings by the rules
    var counts = terminations(games);
    var out = {
      tournament: { name: spec.name, variant: lower(spec.variant, 'VARIANT_'), format: lower(spec.format, 'FORMAT_').replace(/_/g, '-') },
      standings: (standings.rows || []).map(function (r) {
        return { rank: num(r.rank), engine: r.engine, games: num(r.games), points: num(r.points), wins: num(r.wins),
          draws: num(r.draws), losses: num(r.losses), elo: num(r.elo), elo_error: num(r.eloError),
          terminations: counts[r.engine] || {} };
      }),
      games: games
    };
    // a Swiss's table, a knockout's bracket: the API's object is results.json's block under the format's id
    if (standings.formatOutcome) out[out.tournament.format] = standings.formatOutcome;
    if (!out.standings.length) fromGames(out, standings.league);
    var entrants = spec.entrants || [];
    if (standings.match && entrants.length === 2) {
      var m = standings.match;
      // the interval's ends as the API gives them, absent where there is no interval
      var given = m.eloLower !== undefined;
      var elo = num(m.elo);
      out.match = { engine: entrants[0].name, opponent: entrants[1].name, elo: finite(elo),
        elo_infinite: isFinite(elo) || isNaN(elo) ? undefined : (elo > 0 ? 1 : -1),
        elo_interval: given, elo_lower: given ? finite(num(m.eloLower)) : null,
        elo_upper: given ? finite(num(m.eloUpper)) : null, los: num(m.los), draw_ratio: num(m.drawRatio), pentanomial: (m.pentanomial || []).map(num) };
      if (m.llr !== undefined) {
        var sprt = spec.sprt || {};
        // the verdict where the path first crossed a bound, as results.json has it: the games in play then,
        // counted after, may take the LLR back between the bounds
        var path = (m.llrPath || []).map(num);
        var status = 'CONTINUE';
        var crossedAfter = null;
        for (var p = 0; p < path.length && crossedAfter === null; p++) {
          if (path[p] >= num(m.llrUpper) || path[p] <= num(m.llrLower)) {
            status = path[p] >= num(m.llrUpper) ? 'H1' : 'H0';
            crossedAfter = p + 1;
          }
        }
        out.match.sprt = { llr: m.llr, lower_bound: m.llrLower, upper_bound: m.llrUpper, elo0: num(sprt.elo0),
          elo1: num(sprt.elo1), status: status };
        if (crossedAfter !== null) {
          out.match.sprt.crossed_after_pairs = crossedAfter;
          out.match.sprt.llr_at_crossing = path[crossedAfter - 1];
        }
        out.llr_path = (m.llrPath || []).map(function (llr, i) { return [2 * (i + 1), llr]; });
      }
    }
    if (standings.league) {
      var l = standings.league;
      var changes = [];
      (spec.entrants || []).forEach(function (e) {
        if (num(e.fromRound) > 1) changes.push('round ' + num(e.fromRound) + ': ' + e.name + ' joins');
        if (num(e.untilRound) > 0) changes.push('after round ' + num(e.untilRound) + ': ' + e.name + ' leaves');
      });
      (state.leagueChanges || []).forEach(function (c) {
        var entrant = c.entrant || {};
        // a join without a name plays as its engine id (a scheduler before 2026-12 recorded it so, without the name)
        changes.push('round ' + num(c.beforeRound) + ': ' + (entrant.name || entrant.engineId) + (c.leave ? ' leaves' : ' joins'));
      });
      var history = {};
      (l.history || []).forEach(function (h) {
        history[h.engine] = (h.points || []).map(function (p) { return { round: num(p.round), elo: num(p.elo), error: num(p.error) }; });
      });
      // rounds done: those paired, less the last while its games are in play (the standings' rounds are
      // the rounds paired too)
      var paired = num(state.leagueRounds);
      var playing = lower(state.status, 'STATUS_') === 'running' && num(state.finishedGames) < num(state.plannedGames);
      out.league = { rounds: playing ? paired - 1 : paired, history: history, changes: changes, paired: paired,
        ratings: (l.ratings || []).map(function (r) {
          // no rating (absent) while the engine has no game; otherwise an absent one is 0
          return { engine: r.engine, elo: num(r.games) ? num(r.elo) : null, error: num(r.games) ? num(r.error) : null,
            games: num(r.games), active: !!r.active };
        }) };
    }
    return out;
  }

  var FAILURE_ENDINGS = ['time_forfeit', 'illegal_move', 'disconnect', 'stall', 'resignation'];

  /**
   * Each engine's endings as results.json counts them: for a failure or a resignation the games the engine
   * lost so, for any other ending (the rules', an adjudication) every game of its that ended so.
   */
  function terminations(games) {
    var counts = {};
    games.forEach(function (g) {
      [[g.sente, 'sente'], [g.gote, 'gote']].forEach(function (side) {
        var lost = g.result !== 'draw' && g.result !== side[1];
        if (FAILURE_ENDINGS.indexOf(g.termination) < 0 || lost) {
          var mine = counts[side[0]] = counts[side[0]] || {};
          mine[g.termination] = (mine[g.termination] || 0) + 1;
        }
      });
    });
    return counts;
  }

  /**
   * Standings and terminations from the games, where the scheduler's standings have no rows (a league's
   * table is its ratings): points and W/D/L per engine, a league's Elo beside them, and each ending
   * counted as results.json counts it (a failure or resignation for the engine that lost so).
   */
  function fromGames(out, league) {
    var rows = {};
    function row(engine) {
      rows[engine] = rows[engine] || { engine: engine, games: 0, points: 0, wins: 0, draws: 0, losses: 0 };
      return rows[engine];
    }
    out.games.forEach(function (g) {
      [[g.sente, 'sente'], [g.gote, 'gote']].forEach(function (side) {
        var r = row(side[0]);
        r.games++;
        if (g.result === 'draw') {
          r.draws++;
          r.points += 0.5;
        } else if (g.result === side[1]) {
          r.wins++;
          r.points += 1;
        } else {
          r.losses++;
        }
      });
    });
    var counts = terminations(out.games);
    Object.keys(rows).forEach(function (e) { rows[e].terminations = counts[e] || {}; });
    var ratings = {};
    ((league && league.ratings) || []).forEach(function (r) { ratings[r.engine] = r; });
    out.standings = Object.keys(rows).map(function (e) {
      var r = rows[e];
      r.elo = ratings[e] && num(ratings[e].games) ? num(ratings[e].elo) : null;
      r.elo_error = ratings[e] && num(ratings[e].games) ? num(ratings[e].error) : null;
      return r;
    }).sort(function (a, b) { return b.points - a.points; });
    out.standings.forEach(function (r, i) { r.rank = i + 1; });
  }

  var generation = 0;

  /** A test of whether the page is still the one routed now: an answer for an earlier one is not drawn. */
  function routed() {
    var mine = generation;
    return function () { return mine === generation; };
  }

  function stop() {
    if (refresh) clearInterval(refresh);
    refresh = null;
    if (stream) stream.close();
    stream = null;
  }

  function tournaments() {
    var mine = routed();
    api('/api/tournaments').then(function (list) {
      if (!mine()) return;
      main.innerHTML = '';
      var s = views.section(main, 'Tournaments and leagues', 'tournaments');
      var t = el('table');
      var head = el('tr');
      ['Tournament', 'Variant', 'Format', 'Status', 'Games'].forEach(function (h) { head.appendChild(el('th', {}, h)); });
      t.appendChild(head);
      (list.tournaments || []).forEach(function (state) {
        var spec = state.spec || {};
        var tr = el('tr', { class: 'clickable', 'data-tournament': state.tournamentId });
        var link = el('a', { href: '#/t/' + state.tournamentId }, spec.name || state.tournamentId);
        var first = el('td');
        first.appendChild(link);
        tr.appendChild(first);
        [lower(spec.variant, 'VARIANT_'), lower(spec.format, 'FORMAT_').replace(/_/g, '-'), lower(state.status, 'STATUS_'),
          num(state.finishedGames) + ' of ' + num(state.plannedGames)].forEach(function (text) { tr.appendChild(el('td', {}, text)); });
        tr.addEventListener('click', function () { location.hash = '#/t/' + state.tournamentId; });
        t.appendChild(tr);
      });
      s.appendChild(t);
    }).catch(function (error) { if (mine()) show(error); });
  }

  /**
   * A tournament's page, drawn again every five seconds while it runs: the records fetched are kept and
   * only those after them asked for, and the viewer (the game shown, its ply, the focus) stays as it is:
   * a record does not change once it is in.
   */
  function tournament(id) {
    var mine = routed();
    var path = '/api/tournaments/' + encodeURIComponent(id);
    var records = [];
    var busy = false;
    var page = null;
    var variant = '';
    function more() {
      return api(path + '/games?offset=' + records.length + '&limit=1000').then(function (answer) {
        var got = answer.records || [];
        if (num(answer.total) < records.length) {
          records = []; // fewer than were fetched (a rebuilt scheduler): all again
          return more();
        }
        records = records.concat(got);
        return records.length < num(answer.total) && got.length ? more() : records;
      });
    }
    function open(g) {
      views.viewer(page.viewer, g, variant, [
        { href: path + '/games/' + encodeURIComponent(g.id) + '/kif', text: 'KIF' },
        { href: path + '/games?limit=1000', text: 'records (JSON)' },
        { href: path + '/games/' + encodeURIComponent(g.id) + '/log', text: 'engine log' }
      ]);
      page.viewer.scrollIntoView();
    }
    /** Puts a new part in the place of {@code old}, drawn by {@code fill} once it is in the page. */
    function replace(old, fill) {
      var fresh = el('div');
      main.replaceChild(fresh, old);
      fill(fresh);
      return fresh;
    }
    function draw() {
      if (busy) return; // the last one is still under way: it keeps the records in order
      busy = true;
      // the state first, then what it counts: records and standings asked for after a state that says
      // finished hold every game it counts, so the last drawing before the refresh stops is complete
      api(path).then(function (state) {
        return Promise.all([state, api(path + '/standings'), more()]);
      }).then(function (answers) {
        busy = false;
        if (!mine()) return;
        clearError();
        var state = answers[0];
        var data = results(state, answers[1], answers[2]);
        variant = data.tournament.variant;
        var scroll = window.scrollY;
        if (!page) {
          main.innerHTML = '';
          page = { head: el('div'), top: el('div'), games: el('div'), shown: -1 };
          main.appendChild(page.head);
          main.appendChild(page.top);
          page.viewer = views.section(main, 'Game', 'viewer');
          page.viewer.setAttribute('tabindex', '0');
          page.viewer.appendChild(el('p', { class: 'muted' }, 'Choose a game below.'));
          main.appendChild(page.games);
        }
        page.head = replace(page.head, function (part) {
          var head = views.section(part, data.tournament.name, 'tournament');
          head.appendChild(el('p', { class: 'muted', id: 'tournament-state' }, data.tournament.variant + ', ' +
            data.tournament.format + ', ' + lower(state.status, 'STATUS_') + ': ' + num(state.finishedGames) + ' of ' +
            num(state.plannedGames) + ' games' + (state.statusDetail ? ' (' + state.statusDetail + ')' : '')));
        });
        page.top = replace(page.top, function (part) {
          views.standings(part, data);
          views.format(part, data);
          views.match(part, data, data.llr_path);
          views.league(part, data);
          views.terminations(part, data);
          views.crosstable(part, data);
        });
        if (data.games.length !== page.shown) {
          page.games = replace(page.games, function (part) { views.games(part, data, open); });
          page.shown = data.games.length;
        }
        window.scrollTo(0, scroll);
        if (lower(state.status, 'STATUS_') !== 'running' && refresh) {
          clearInterval(refresh);
          refresh = null;
        }
      }).catch(function (error) {
        busy = false;
        if (!mine()) return;
        if (error.status === 404) { // no such tournament: nothing to refresh
          stop();
          main.innerHTML = '';
        }
        show(error);
      });
    }
    draw();
    refresh = setInterval(draw, 5000);
  }

  /**
   * Games in play as the scheduler streams them: each update a game's whole state (position, last move,
   * clocks, each side's last depth, score and pv), so nothing is lost when updates are merged.
   */
  function liveGames() {
    var mine = routed();
    main.innerHTML = '';
    var s = views.section(main, 'Games in play', 'live');
    var note = el('p', { class: 'muted', id: 'live-note' }, 'Waiting for the referees…');
    s.appendChild(note);
    var box = el('div', { class: 'live-games' });
    s.appendChild(box);
    var games = {};
    function clock(g, side) {
      var remaining = g[side + '_remaining_ms'];
      if (remaining === undefined) return '';
      var moving = !g.over && g.position.senteToMove === (side === 'sente');
      if (moving) remaining = Math.max(0, remaining - (Date.now() - g.received));
      return remaining === 0 ? '(byoyomi)' : (remaining / 1000).toFixed(1) + ' s';
    }
    function render(g) {
      if (!g.element) {
        g.element = el('div', { class: 'live-game' });
        box.appendChild(g.element);
      }
      var e = g.element;
      e.innerHTML = '';
      e.setAttribute('data-game', g.game);
      e.setAttribute('data-ply', String(g.ply));
      e.appendChild(el('div', {}, g.game + (g.over ? ' (over: ' + g.result + ')' : '')));
      var board = el('div');
      e.appendChild(board);
      Taikai.board.draw(board, g.position, g.variant, g.last_move || null, { sente: g.sente, gote: g.gote });
      board.setAttribute('data-board-sfen', Taikai.board.boardSfen(g.position));
      ['sente', 'gote'].forEach(function (side) {
        var info = g[side + '_info'];
        var line = el('div', { class: 'clock', 'data-side': side });
        line.textContent = (side === 'sente' ? '☗ ' : '☖ ') + g[side] + ' ' + clock(g, side) +
          (info ? '  depth ' + (info.depth || '—') + ', score ' + (info.score || '—') : '');
        e.appendChild(line);
        if (info && info.pv) e.appendChild(el('div', { class: 'pv' }, info.pv));
      });
    }
    function connect() {
      var source = new EventSource('/api/live');
      stream = source;
      source.addEventListener('game', function (message) {
        var g = JSON.parse(message.data);
        var known = games[g.game];
        g.variant = (g.variant || '').toLowerCase();
        g.position = Taikai.board.parse(g.sfen);
        g.received = Date.now();
        g.element = known ? known.element : null;
        games[g.game] = g;
        render(g);
        if (g.over) {
          setTimeout(function () {
            if (games[g.game] === g) {
              if (g.element) g.element.remove();
              delete games[g.game];
            }
          }, 10000);
        }
        note.textContent = Object.keys(games).length + ' games shown';
      });
      // An EventSource tells no status: a stream refused (no session, 401) is closed for good, one cut
      // tries again by itself. The session is checked first (api() goes to the login on a 401); a closed
      // stream with a session is opened again a little later.
      source.onerror = function () {
        if (!mine()) return;
        note.textContent = 'The stream was interrupted; reconnecting…';
        api('/api/cluster').then(function () {
          if (mine() && stream === source && source.readyState === EventSource.CLOSED) {
            setTimeout(function () { if (mine() && stream === source) connect(); }, 5000);
          }
        }).catch(function (error) { if (mine()) show(error); });
      };
    }
    connect();
    refresh = setInterval(function () { Object.keys(games).forEach(function (id) { render(games[id]); }); }, 1000);
  }

  function cluster() {
    var mine = routed();
    function draw() {
      api('/api/cluster').then(function (answer) {
        if (!mine()) return;
        main.innerHTML = '';
        var s = views.section(main, 'Referees and engine workers', 'cluster');
        var t = el('table');
        var head = el('tr');
        ['Referee', 'Up', 'Games in play', 'Worker', 'Address', 'Slots', 'Free', 'Busy', 'Reachable'].forEach(function (h) {
          head.appendChild(el('th', {}, h));
        });
        t.appendChild(head);
        (answer.referees || []).forEach(function (r) {
          var st = r.status || {};
          var workers = st.workers || [{}];
          workers.forEach(function (w, i) {
            var tr = el('tr', { 'data-referee': r.referee_id, 'data-worker': w.workerId || '' });
            [i ? '' : r.referee_id, i ? '' : (r.up ? 'yes' : 'no (' + Math.round(r.seen_ms_ago / 1000) + ' s)'),
              i ? '' : num(st.gamesInPlay) + ' of ' + num(st.gamesCapacity), w.workerId || '—', w.address || '',
              String(num(w.slots)), String(num(w.free)), String(num(w.slots) - num(w.free)), w.reachable ? 'yes' : 'no']
              .forEach(function (text) { tr.appendChild(el('td', {}, text)); });
            t.appendChild(tr);
          });
        });
        s.appendChild(t);
        var l = answer.live || {};
        s.appendChild(el('p', { class: 'muted' }, 'Live view: ' + l.games_in_play + ' games in play, ' + l.streams +
          ' streams open, ' + l.events + ' events, ' + l.dropped + ' dropped for slow streams.'));
      }).catch(function (error) { if (mine()) show(error); });
    }
    draw();
    refresh = setInterval(draw, 5000);
  }

  /** Shows {@code error} in one line, in the place of the one shown before (a refresh that keeps failing). */
  function show(error) {
    if (String(error && error.message) === 'not logged in') return;
    clearError();
    var loading = document.getElementById('loading');
    if (loading) loading.parentNode.removeChild(loading);
    main.appendChild(el('p', { class: 'bad', id: 'error' }, String(error)));
  }

  function clearError() {
    var old = document.getElementById('error');
    if (old) old.parentNode.removeChild(old);
  }

  function route() {
    generation++;
    stop();
    // nothing of the page before stays under the new address while the new one loads, or fails to
    main.innerHTML = '';
    main.appendChild(el('p', { class: 'muted', id: 'loading' }, 'Loading…'));
    var hash = location.hash || '#/';
    if (hash.indexOf('#/t/') === 0) {
      var id;
      try {
        id = decodeURIComponent(hash.substring(4));
      } catch (malformed) {
        main.innerHTML = '';
        show(new Error('the address names no tournament: ' + hash.substring(4) + ' is not a valid escape'));
        return;
      }
      tournament(id);
    } else if (hash === '#/live') {
      liveGames();
    } else if (hash === '#/cluster') {
      cluster();
    } else {
      tournaments();
    }
  }

  document.getElementById('logout').addEventListener('click', function (e) {
    e.preventDefault();
    // the scheduler takes a POST only with a JSON or protobuf body (a defence against cross-site forms)
    fetch('/api/logout', { method: 'POST', credentials: 'same-origin',
      headers: { 'Content-Type': 'application/json', Accept: 'application/json' }, body: '{}' }).then(function (response) {
      if (!response.ok && response.status !== 401) throw new Error('the logout was refused (' + response.status + ')');
      location.href = '/ui/login.html';
    }).catch(function (error) {
      main.insertBefore(el('p', { class: 'bad', id: 'logout-error' }, 'Not logged out: ' + (error && error.message)), main.firstChild);
    });
  });
  window.addEventListener('hashchange', route);
  route();
})();

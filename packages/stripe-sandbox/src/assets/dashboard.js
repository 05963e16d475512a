// Payments sandbox developer dashboard: test-clock and card buttons (no inline script).
(function () {
  'use strict';
  var status = document.getElementById('dashboard-status');
  function post(url, body, label) {
    status.textContent = label + '…';
    return fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })
      .then(function (res) {
        return res.json().then(function (b) {
          return { ok: res.ok, body: b };
        });
      })
      .then(function (r) {
        if (!r.ok) {
          status.textContent = (r.body.error && r.body.error.message) || 'Failed';
          return;
        }
        status.textContent = label + ': done. Reloading…';
        setTimeout(function () {
          window.location.reload();
        }, 600);
      })
      .catch(function () {
        status.textContent = 'Could not reach the sandbox.';
      });
  }
  document.addEventListener('click', function (e) {
    var b = e.target.closest('button');
    if (!b) return;
    if (b.dataset.advance) {
      var body = b.dataset.months ? { months: Number(b.dataset.months) } : { days: Number(b.dataset.days) };
      post('/sandbox/api/customers/' + encodeURIComponent(b.dataset.advance) + '/advance', body, b.textContent.trim());
    } else if (b.dataset.card) {
      post('/sandbox/api/customers/' + encodeURIComponent(b.dataset.card) + '/card', { number: b.dataset.number }, b.textContent.trim());
    }
  });
})();

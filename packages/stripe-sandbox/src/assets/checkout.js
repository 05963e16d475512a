// Payments sandbox checkout form: submits the card to the sandbox and, once paid, sends
// the top window (the app page around this iframe) to the session's return URL.
(function () {
  'use strict';
  var form = document.getElementById('checkout-form');
  if (!form) return;
  var errorBox = document.getElementById('checkout-error');
  var button = document.getElementById('pay-button');
  var fields = { number: 'card-number', exp_month: 'card-exp', exp_year: 'card-exp', cvc: 'card-cvc', name: 'card-name' };
  var number = document.getElementById('card-number');
  var exp = document.getElementById('card-exp');

  // 4242424242424242 -> 4242 4242 4242 4242
  number.addEventListener('input', function () {
    var digits = number.value.replace(/\D/g, '').slice(0, 19);
    number.value = digits.replace(/(\d{4})(?=\d)/g, '$1 ');
  });
  // 1234 -> 12/34
  exp.addEventListener('input', function () {
    var digits = exp.value.replace(/\D/g, '').slice(0, 4);
    exp.value = digits.length > 2 ? digits.slice(0, 2) + '/' + digits.slice(2) : digits;
  });

  function showError(message, param) {
    errorBox.textContent = message;
    Array.prototype.forEach.call(form.querySelectorAll('input'), function (i) {
      i.removeAttribute('aria-invalid');
    });
    var target = param && fields[param] ? document.getElementById(fields[param]) : null;
    if (target) {
      target.setAttribute('aria-invalid', 'true');
      target.focus();
    } else {
      errorBox.focus();
    }
  }

  form.addEventListener('submit', function (e) {
    e.preventDefault();
    errorBox.textContent = '';
    var original = button.textContent;
    button.disabled = true;
    button.textContent = 'Processing…';
    var data = new FormData(form);
    fetch(form.getAttribute('action'), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        client_secret: form.dataset.clientSecret,
        number: data.get('number'),
        exp: data.get('exp'),
        cvc: data.get('cvc'),
        name: data.get('name'),
      }),
    })
      .then(function (res) {
        return res.json().then(function (body) {
          return { ok: res.ok, body: body };
        });
      })
      .then(function (r) {
        if (r.ok && r.body.redirect) {
          button.textContent = 'Paid';
          try {
            window.top.location.href = r.body.redirect;
          } catch (err) {
            window.location.href = r.body.redirect;
          }
          return;
        }
        var err = (r.body && r.body.error) || {};
        showError(err.message || 'Something went wrong. Please try again.', err.param);
        button.disabled = false;
        button.textContent = original;
      })
      .catch(function () {
        showError('Could not reach the payments sandbox. Check your connection and try again.');
        button.disabled = false;
        button.textContent = original;
      });
  });
})();

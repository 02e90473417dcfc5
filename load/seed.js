// The seed's load, for k6: ramp to 200 virtual users, each on its own keep-alive connection,
// mixing the light routes (/ and /api/user) with the CPU-heavy /api/compute. Against the
// `starved` profile only 4 users are served and the thresholds fail; against `tuned` or
// `event-loop` they pass.
//
//   k6 run -e ARIADNE_TARGET=http://localhost:8080 load/seed.js
//
// Environment: ARIADNE_TARGET (base URL, default http://localhost:8080), VUS (default 200),
// RAMP (default 30s), HOLD (default 2m), THINK (seconds between requests, default 0.1).
import http from 'k6/http';
import { check, sleep } from 'k6';

const target = (__ENV.ARIADNE_TARGET || 'http://localhost:8080').replace(/\/+$/, '');
const vus = parseInt(__ENV.VUS || '200', 10);
const think = parseFloat(__ENV.THINK || '0.1');

export const options = {
  scenarios: {
    seed: {
      executor: 'ramping-vus',
      startVUs: 0,
      stages: [
        { duration: __ENV.RAMP || '30s', target: vus },
        { duration: __ENV.HOLD || '2m', target: vus },
        { duration: '10s', target: 0 },
      ],
      gracefulRampDown: '15s',
    },
  },
  // Each VU keeps its connection between iterations (k6's default, spelled out): the
  // keep-alive connection is what pins a worker in the blocking model.
  noConnectionReuse: false,
  noVUConnectionReuse: false,
  thresholds: {
    'http_req_duration{kind:light}': ['p(95)<250'],
    'http_req_duration{kind:compute}': ['p(95)<2000'],
    http_req_failed: ['rate<0.01'],
    checks: ['rate>0.99'],
  },
  summaryTrendStats: ['avg', 'med', 'p(95)', 'p(99)', 'max'],
};

// Weighted like the seed's traffic: mostly light requests, some CPU-heavy ones.
const routes = [
  { path: '/', kind: 'light', weight: 4 },
  { path: '/api/user', kind: 'light', weight: 4 },
  { path: '/api/compute', kind: 'compute', weight: 2 },
];
const totalWeight = routes.reduce((sum, route) => sum + route.weight, 0);

function pick() {
  let roll = Math.random() * totalWeight;
  for (const route of routes) {
    roll -= route.weight;
    if (roll < 0) {
      return route;
    }
  }
  return routes[routes.length - 1];
}

export default function () {
  const route = pick();
  const response = http.get(`${target}${route.path}`, {
    tags: { name: route.path, kind: route.kind },
    timeout: '10s',
  });
  check(response, { 'status is 200': (r) => r.status === 200 });
  if (think > 0) {
    sleep(think);
  }
}

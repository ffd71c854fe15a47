import { http, HttpResponse } from 'msw';
import { setupServer } from 'msw/node';

/** Every test starts with only the runtime config answered; tests add the endpoints they exercise. */
export const server = setupServer(
  http.get('/runtime-config.json', () =>
    HttpResponse.json({ creatorOrigin: 'http://creator.test', takerOrigin: 'http://localhost:3000' }),
  ),
);

import type { FastifyRequest } from 'fastify';
import { type Actor, apiActor } from '../audit/actor.js';

/** The actor of an API call on a scoped route: its credentials (set by the route's guard) and address. */
export function actorOf(request: FastifyRequest): Actor {
  return apiActor(request.principal, request.ip);
}

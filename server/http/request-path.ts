/**
 * The request's own path and query, set by the front server on every request (any value a
 * client sent is replaced): the console's layout cannot see the address it renders, and
 * sign-in brings the user back to it.
 */
export const REQUEST_PATH_HEADER = "x-qm-request-path";

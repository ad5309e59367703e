export class MalformedImageError extends Error {}

export * from './agent-runs-error.js';
export * from './api-error.js';
export * from './api-error-factory.js';
export * from './connection-errors.js';
export * from './request-validation-error.js';
export * from './wait-timeout-error.js';

/**
 * Implementation of the validation module: the exception mappers, the violation and Jackson error translators,
 * negotiation, the localised message interpolator and the JSON writer. Not an API: anything here may change.
 */
package dev.fleche.validation.internal;

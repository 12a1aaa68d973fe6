// The dialog moved into the design system (ui/Dialog.tsx); pages still import it from here.
export { Dialog, DialogActions, Sheet } from './ui/Dialog';

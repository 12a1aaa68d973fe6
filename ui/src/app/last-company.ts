const KEY = 'boardroom.lastCompanyId';

export const lastCompanyId = (): string | null => localStorage.getItem(KEY);
export const rememberCompany = (companyId: string): void => localStorage.setItem(KEY, companyId);
